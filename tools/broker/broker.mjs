// The local venue's MQTT broker: Aedes with each thing's credentials and the IoT policy's topic rules.
//
// A thing connects with its thing name as client id and username, and the password
// HMAC-SHA256(venue key, "thing:<name>") (local/deckhand_local/venue/credentials.py derives the same);
// it may publish only dh/<itself>/up and subscribe only to dh/<itself>/down. The server identity
// (deckhand-server) may publish and subscribe anywhere under dh/. Anonymous clients are refused.
// MQTT over WebSocket (the player's browser page, web/player/) gets exactly the same authentication
// and topic rules: every listener hands its connections to the one broker.
// As IoT Core does, the broker itself publishes each thing's connect and disconnect as a lifecycle
// event on $aws/events/presence/{connected,disconnected}/<client id>, which only the server identity
// may subscribe to and nobody may publish on.
//
// node broker.mjs --key-stdin [--host 127.0.0.1] [--port 1883]
//                 [--tls-port P --tls-host H --tls-cert F --tls-key F]
//                 [--ws-port P --ws-host 127.0.0.1]
import { createHmac, timingSafeEqual } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { createServer as createTlsServer } from 'node:tls'
import { parseArgs } from 'node:util'
import { Aedes } from 'aedes'

const SERVER = 'deckhand-server'
const THING_NAME = /^[A-Za-z0-9_:-]{1,128}$/
const RESERVED = new Set([SERVER, 'events']) // the events' topic is dh/events/<id>: never a thing
const PRESENCE = '$aws/events/presence'
const PRESENCE_FILTER = `${PRESENCE}/+/+` // the server's subscription (the IoT rule's topic filter)
const BAD_CREDENTIALS = 4
const NOT_AUTHORIZED = 5

const { values: args } = parseArgs({
  options: {
    'key-stdin': { type: 'boolean', default: false },
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '1883' },
    'tls-port': { type: 'string' },
    'tls-host': { type: 'string', default: '127.0.0.1' },
    'tls-cert': { type: 'string' },
    'tls-key': { type: 'string' },
    'ws-port': { type: 'string' },
    'ws-host': { type: 'string', default: '127.0.0.1' }
  }
})
if (!args['key-stdin']) {
  console.error('broker.mjs: --key-stdin is required (the broker never runs without credentials)')
  process.exit(2)
}
// The venue key (hex) on standard input: never in a file or on the command line.
const key = Buffer.from(readFileSync(0, 'utf8').trim(), 'hex')
if (key.length < 16) {
  console.error('broker.mjs: the venue key is too short')
  process.exit(2)
}

function derive (purpose) {
  return createHmac('sha256', key).update(purpose).digest('base64url')
}

function sameSecret (expected, given) {
  const a = Buffer.from(expected)
  const b = Buffer.from(given || '')
  return a.length === b.length && timingSafeEqual(a, b)
}

// A player's own device (username web-<link id>, its join token as password, client id = username) is
// checked by the venue: the broker asks its loopback join-token check (local/deckhand_local/venue/
// link_check.py, port in DECKHAND_LINK_CHECK_PORT, authenticated by a secret derived from the venue key),
// then holds it to the same topic rules as any thing. The server identity publishing a thing's name on
// dh/control/close cuts that device off at once (a revoked join link).
const PLAYER_THING = /^web-[a-z2-7]{10}$/
const CLOSE_TOPIC = 'dh/control/close'
const LINK_CHECK_PORT = Number(process.env.DECKHAND_LINK_CHECK_PORT || 0)

// Whether the venue admits this player device with this token (false on any failure: refused, not open).
function checkLink (username, password, answer) {
  let answered = false
  const done = (ok) => {
    if (!answered) {
      answered = true
      answer(ok)
    }
  }
  if (!LINK_CHECK_PORT) return done(false)
  const body = JSON.stringify({ username, password })
  const req = httpRequest(
    {
      host: '127.0.0.1',
      port: LINK_CHECK_PORT,
      path: '/links/authorize',
      method: 'POST',
      timeout: 5000,
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        Authorization: `Bearer ${derive('link-check:players')}`
      }
    },
    (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => { text += chunk })
      res.on('end', () => {
        let grant = null
        try { grant = res.statusCode === 200 ? JSON.parse(text) : null } catch { grant = null }
        done(grant !== null && grant.thing === username)
      })
    }
  )
  req.on('timeout', () => req.destroy())
  req.on('error', () => done(false))
  req.end(body)
}

function refuse (code, message, callback) {
  const error = new Error(message)
  error.returnCode = code
  callback(error, false)
}

function isThing (user) {
  return user !== undefined && user !== SERVER
}

function ownsTopic (user, topic, direction) {
  return user === SERVER ? topic.startsWith('dh/') : topic === `dh/${user}/${direction}`
}

const broker = await Aedes.createBroker({ maxClientsIdLength: 256, heartbeatInterval: 3600000, connectTimeout: 5000 })

broker.authenticate = (client, username, password, callback) => {
  if (typeof username !== 'string' || password === undefined || password === null) {
    return refuse(NOT_AUTHORIZED, 'anonymous clients are refused', callback)
  }
  if (username === SERVER) {
    if (!client.id.startsWith(`${SERVER}/`)) {
      return refuse(NOT_AUTHORIZED, `the server connects with a client id under ${SERVER}/`, callback)
    }
    if (!sameSecret(derive(`server:${SERVER}`), password.toString())) {
      return refuse(BAD_CREDENTIALS, 'wrong password', callback)
    }
  } else if (username.startsWith('web-')) {
    if (!PLAYER_THING.test(username) || client.id !== username) {
      return refuse(NOT_AUTHORIZED, 'a player device connects with its thing as client id and username', callback)
    }
    return checkLink(username, password.toString(), (ok) => {
      if (!ok) return refuse(BAD_CREDENTIALS, 'not a valid join token', callback)
      admit(client, username, callback)
    })
  } else {
    if (!THING_NAME.test(username) || RESERVED.has(username) || client.id !== username) {
      return refuse(NOT_AUTHORIZED, 'a thing connects with its name as client id and username', callback)
    }
    if (!sameSecret(derive(`thing:${username}`), password.toString())) {
      return refuse(BAD_CREDENTIALS, 'wrong password', callback)
    }
  }
  admit(client, username, callback)
}

function admit (client, username, callback) {
  const taken = broker.clients[client.id]
  if (taken) taken.deckhandReason = 'DUPLICATE_CLIENTID' // Aedes closes it once this one is registered
  client.deckhandUser = username
  callback(null, true)
}

// A thing's connection up or down, as IoT Core's lifecycle event says it (docs/protocol.md): the
// presence function keeps the newest per thing. The server's own connections are no device's.
function announce (client, eventType, fields) {
  if (!isThing(client.deckhandUser)) return
  const body = { clientId: client.id, timestamp: Date.now(), eventType, ...fields }
  broker.publish(
    { cmd: 'publish', topic: `${PRESENCE}/${eventType}/${client.id}`, payload: Buffer.from(JSON.stringify(body)), qos: 1, retain: false, dup: false },
    () => {}
  )
}

// Why a connection ended, in IoT Core's words: the client said DISCONNECT, its keep-alive ran out, the
// venue cut it off (dh/control/close), another connection took its client id, or it was lost.
function disconnectReason (client) {
  if (client.deckhandReason) return client.deckhandReason
  return client._disconnected ? 'CLIENT_INITIATED_DISCONNECT' : 'CONNECTION_LOST'
}

broker.on('client', (client) => announce(client, 'connected', {}))
broker.on('clientDisconnect', (client) => announce(client, 'disconnected', { disconnectReason: disconnectReason(client) }))
broker.on('keepaliveTimeout', (client) => { client.deckhandReason = 'MQTT_KEEP_ALIVE_TIMEOUT' })

broker.authorizePublish = (client, packet, callback) => {
  const user = client ? client.deckhandUser : undefined
  if (user === undefined || !ownsTopic(user, packet.topic, 'up')) {
    return callback(new Error(`not allowed to publish on ${packet.topic}`))
  }
  callback(null)
}

broker.authorizeSubscribe = (client, subscription, callback) => {
  const user = client ? client.deckhandUser : undefined
  // A refused filter is answered 0x80 in the SUBACK (the client stays connected, as with IoT Core).
  const allowed = ownsTopic(user, subscription.topic, 'down') || (user === SERVER && subscription.topic === PRESENCE_FILTER)
  callback(null, user !== undefined && allowed ? subscription : null)
}

broker.authorizeForward = (client, packet) => {
  // Defence in depth: a thing is never sent anything but its own down topic.
  const user = client ? client.deckhandUser : undefined
  if (isThing(user) && packet.topic !== `dh/${user}/down`) return null
  return user === undefined ? null : packet
}

// The venue cuts a player device off (its join link revoked or replaced): only the server may say so.
broker.on('publish', (packet, client) => {
  if (packet.topic !== CLOSE_TOPIC || !client || client.deckhandUser !== SERVER) return
  const thing = packet.payload.toString()
  const target = PLAYER_THING.test(thing) ? broker.clients[thing] : undefined
  if (target) {
    target.deckhandReason = 'SERVER_INITIATED_DISCONNECT'
    target.close()
  }
})

function noDelay (socket) {
  socket.setNoDelay(true) // a handler's several small messages leave at once, not one ACK apart
}

// MQTT packets are read whole before Aedes looks at them, and a packet may declare 256 MB: anyone
// could fill the broker's memory, before authenticating too. Each packet's declared length is checked
// as its header arrives, and a connection that declares too much is closed at once.
const MAX_BEFORE_LOGIN = 4096 // CONNECT: client id, credentials, a will
const MAX_THING_PACKET = 16384 // a device's message is under 1 KiB (protocol.md)
const MAX_SERVER_PACKET = 262144

function limitPackets (socket, client) {
  // Aedes reads the socket with read(); each chunk it takes is also emitted as 'data'.
  socket.on('data', packetCheck(client, () => socket.destroy()))
}

/** A check of each chunk of a connection's bytes, in order: ``cut`` is called on a packet that
 * declares more than its sender may send. */
function packetCheck (client, cut) {
  let skip = 0 // bytes of the current packet's body still to pass
  let inHeader = false // the first byte is read; its remaining length is being read
  let length = 0
  let shift = 0
  return (chunk) => {
    let i = 0
    while (i < chunk.length) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length - i)
        skip -= n
        i += n
        continue
      }
      const byte = chunk[i++]
      if (!inHeader) {
        inHeader = true // packet type and flags
        length = 0
        shift = 0
        continue
      }
      length += (byte & 0x7f) * 2 ** shift
      shift += 7
      if (byte & 0x80) {
        if (shift > 21) return cut() // more than four length bytes: not MQTT
        continue
      }
      inHeader = false
      const user = client.deckhandUser
      const limit = user === undefined ? MAX_BEFORE_LOGIN : user === SERVER ? MAX_SERVER_PACKET : MAX_THING_PACKET
      if (length > limit) return cut()
      skip = length
    }
  }
}

function handle (socket) {
  noDelay(socket)
  const client = broker.handle(socket)
  limitPackets(socket, client)
}

// A WebSocket connection as a stream of MQTT bytes (each frame's payload in turn): the same broker,
// the same checks, the same packet limits as a TCP connection. A frame is never larger than a packet
// may be (the server's), so a frame cannot fill the memory before the packet check sees it; each frame
// is checked before the stream takes it (a whole packet comes in one frame: checked after the stream
// had it, it would be handled before the connection is cut).
async function listenWebSocket (port, host) {
  let ws
  try {
    ws = await import('ws')
  } catch {
    console.error('broker.mjs: --ws-port needs the ws package: cd tools/broker && npm install')
    process.exit(2)
  }
  const wss = new ws.WebSocketServer({ port, host, maxPayload: MAX_SERVER_PACKET + 8, perMessageDeflate: false })
  wss.on('connection', (socket, request) => {
    request.socket.setNoDelay(true)
    const stream = ws.createWebSocketStream(socket)
    stream.on('error', () => stream.destroy())
    const client = broker.handle(stream)
    const check = packetCheck(client, () => {
      stream.destroy()
      socket.terminate()
    })
    socket.prependListener('message', (data) => check(Buffer.isBuffer(data) ? data : Buffer.concat([].concat(data))))
  })
  await new Promise((resolve, reject) => {
    wss.once('error', reject)
    wss.once('listening', resolve)
  })
  return wss
}

const servers = []
if (args['tls-port']) {
  const tlsServer = createTlsServer(
    { cert: readFileSync(args['tls-cert']), key: readFileSync(args['tls-key']), minVersion: 'TLSv1.2' },
    handle
  )
  await new Promise((resolve, reject) => {
    tlsServer.once('error', reject)
    tlsServer.listen(Number(args['tls-port']), args['tls-host'], resolve)
  })
  servers.push(tlsServer)
}
if (args['ws-port']) servers.push(await listenWebSocket(Number(args['ws-port']), args['ws-host']))
// The plain listener last: once it accepts connections, every listener is up.
const server = createServer({ noDelay: true }, handle)
await new Promise((resolve, reject) => {
  server.once('error', reject)
  server.listen(Number(args.port), args.host, resolve)
})
servers.push(server)

function stop () {
  for (const s of servers) s.close()
  broker.close(() => process.exit(0))
  setTimeout(() => process.exit(0), 2000).unref()
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
