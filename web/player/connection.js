// MQTT over WebSocket to the venue's broker (or IoT Core), as a handset connects: its own topics only,
// `hello` on every connect, each unanswered action sent again with its own id after a reconnect and
// every 5 s while the link stays up; the link comes back by itself with a growing pause.
import mqttModule from './vendor/mqtt.esm.js'

const mqtt = mqttModule.connect ? mqttModule : mqttModule.default
const RESEND_MS = 5000
const FIRST_PAUSE_MS = 1000
const LONGEST_PAUSE_MS = 30000

/** The seat's credentials from the URL fragment: a join link's token (`#t=<link id>.<secret>`) or a
 * thing's own (`#thing=<name>&key=<password>`, venue tests and handset-less tables); null if none. */
export function credentialsOf (hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''))
  const token = params.get('t')
  if (token && /^[A-Za-z0-9_-]{1,64}\.[A-Za-z0-9_-]{1,200}$/.test(token)) {
    const thing = `web-${token.split('.')[0]}`
    return { thing, username: thing, password: token }
  }
  const thing = params.get('thing')
  const key = params.get('key')
  if (thing && key && /^[A-Za-z0-9_:-]{1,128}$/.test(thing)) return { thing, username: thing, password: key }
  return null
}

export class Link {
  /** `events`: onMessage(message), onState({online, lag, retryIn, refused}); `lang()`: the page's
   * language, sent with every hello so the server draws the seat's screen in it. */
  constructor (url, credentials, pending, nextId, events, lang) {
    this.lang = lang
    this.url = url
    this.credentials = credentials
    this.pending = pending
    this.nextId = nextId
    this.events = events
    this.client = null
    this.online = false
    this.lag = null
    this.failures = 0
    this.timer = null
    this.asked = new Map() // msg id → when it went up (the lag is the time to its answer)
    setInterval(() => this.resendDue(), 1000)
    window.addEventListener('online', () => this.now())
    document.addEventListener('visibilitychange', () => { if (!document.hidden) this.now() })
  }

  get up () { return `dh/${this.credentials.thing}/up` }
  get down () { return `dh/${this.credentials.thing}/down` }

  start () {
    clearTimeout(this.timer)
    this.timer = null
    if (this.client) this.client.end(true)
    const client = mqtt.connect(this.url, {
      clientId: this.credentials.username,
      username: this.credentials.username,
      password: this.credentials.password,
      protocolVersion: 4,
      clean: true,
      keepalive: 30,
      connectTimeout: 10000,
      reconnectPeriod: 0 // the page's own backoff (below) decides when to try again
    })
    this.client = client
    client.on('connect', () => {
      if (client !== this.client) return
      this.failures = 0
      this.refused = false
      client.subscribe(this.down, { qos: 1 }, () => {
        this.hello()
        for (const item of this.pending.items) this.publish(item.message, item)
        this.pending.save()
        this.setOnline(true)
      })
    })
    client.on('message', (topic, payload) => {
      let message
      try { message = JSON.parse(new TextDecoder().decode(payload)) } catch { return }
      if (!message || typeof message !== 'object') return
      if ((message.t === 'ack' || message.t === 'reject') && typeof message.msg === 'string') {
        const asked = this.asked.get(message.msg)
        if (asked !== undefined) {
          this.lag = Math.round(performance.now() - asked)
          this.asked.delete(message.msg)
        }
        this.pending.answered(message.msg)
      }
      this.events.onMessage(message)
      this.report()
    })
    client.on('error', (error) => {
      // A refused login (bad credentials, not authorized): said on the page, and tried again later.
      if (error && (error.code === 4 || error.code === 5 || error.code === 134 || error.code === 135)) this.refused = true
    })
    client.on('close', () => {
      if (client !== this.client) return
      this.setOnline(false)
      this.again()
    })
  }

  /** Say hello: the server answers with the seat's whole view (in the page's language). */
  hello () {
    if (this.client && this.client.connected) this.publish({ t: 'hello', msg: this.nextId(), lang: this.lang() })
  }

  /** Try again after a pause that doubles with each failure (1 s … 30 s, with some jitter). */
  again () {
    if (this.timer !== null) return
    const pause = Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** this.failures) * (0.75 + Math.random() / 2)
    this.failures += 1
    this.retryAt = performance.now() + pause
    this.timer = setTimeout(() => { this.timer = null; this.start() }, pause)
    this.report()
  }

  /** The network came back or the page is shown again: no need to wait out the pause. */
  now () {
    if (!this.online && this.timer !== null) this.start()
  }

  /** Queue an action (kept until answered) and send it if the link is up. */
  send (message) {
    const item = { message, sentAt: 0 }
    this.pending.items.push(item)
    if (this.online) this.publish(message, item)
    this.pending.save()
  }

  /** A message that needs no resend (the hello is sent on every connect anyway). */
  publish (message, item) {
    if (!this.client) return
    if (item) item.sentAt = Date.now()
    if (!this.asked.has(message.msg)) this.asked.set(message.msg, performance.now())
    this.client.publish(this.up, JSON.stringify(message), { qos: 1 })
  }

  resendDue () {
    this.report() // the seconds to the next try count down while offline
    if (!this.online) return
    const now = Date.now()
    let any = false
    for (const item of this.pending.items) {
      if (now - item.sentAt >= RESEND_MS) {
        this.publish(item.message, item)
        any = true
      }
    }
    if (any) this.pending.save()
    this.report()
  }

  setOnline (online) {
    this.online = online
    this.report()
  }

  /** The link's state to the page, when it changed. */
  report () {
    const retryIn = !this.online && this.timer !== null ? Math.max(0, Math.ceil((this.retryAt - performance.now()) / 1000)) : null
    const now = { online: this.online, lag: this.lag, retryIn, refused: !!this.refused }
    const key = JSON.stringify(now)
    if (key === this.reported) return
    this.reported = key
    this.events.onState(now)
  }
}
