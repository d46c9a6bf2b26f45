// The player's page: reads its seat from the URL fragment and the broker's address from the venue,
// then shows the seat's screen and sends the options tapped (docs/client.md).
import { credentialsOf, Link } from './connection.js'
import { chooseLanguage, remember, translator } from './i18n.js'
import { messageIds, moveOption, Pending, SeatState } from './protocol.js'
import { draw, drawClock } from './render.js'

const root = document.getElementById('app')
const storage = pageStorage()
let lang = chooseLanguage(location.search, storage)
let t = translator(lang)
const state = new SeatState()
const nextId = messageIds()
const settings = {
  confirm: storage.getItem('deckhand.confirm') === '1',
  contrast: storage.getItem('deckhand.contrast') === '1',
  armed: null // the option tapped once, waiting for its confirming tap
}
let link = { online: false, lag: null, retryIn: null, refused: false }
let connection = null

/** The browser's storage, or one for this page only where the browser refuses it (private modes). */
function pageStorage () {
  try {
    const kept = window.localStorage
    kept.getItem('deckhand.lang')
    return kept
  } catch {
    const kept = new Map()
    return { getItem: (key) => kept.get(key) ?? null, setItem: (key, value) => kept.set(key, String(value)) }
  }
}

function redraw () {
  document.documentElement.lang = lang
  root.setAttribute('lang', lang)
  draw(root, state, link, t, settings)
}

function send (message) {
  if (message && connection) connection.send(message)
  redraw()
}

root.querySelector('#hand').addEventListener('click', (event) => {
  const card = event.target.closest('[data-card]')
  if (!card) return
  state.toggle(Number(card.dataset.index))
  settings.armed = null
  redraw()
})

// A board game's squares: tap a piece, then where it goes (Gomoku: a point). Squares drawn smaller than
// a finger (44 px: a 15 × 15 board on a phone) or the confirm setting hold the complete move until the
// move's option is tapped (no undo in the rules: a mis-tap is never a move); larger ones send it at once.
const FINGER = 44

root.querySelector('#board').addEventListener('click', (event) => {
  const square = event.target.closest('[data-square]')
  if (!square || !state.ready()) return
  const done = state.pick(square.dataset.square)
  settings.armed = null
  if (done === 'done') {
    const n = moveOption(state.ask())
    const box = square.getBoundingClientRect()
    if (settings.confirm || Math.min(box.width, box.height) < FINGER) {
      settings.armed = n // the move's option, waiting for its confirming tap
    } else {
      send(state.act(n, nextId))
      return
    }
  }
  redraw()
})

root.querySelector('#options').addEventListener('click', (event) => {
  const button = event.target.closest('[data-option]')
  if (!button || !state.ready()) return
  const n = Number(button.dataset.option)
  if (settings.confirm && settings.armed !== n) {
    settings.armed = n // no undo in the rules: the play goes only on the second tap
    redraw()
    return
  }
  settings.armed = null
  send(state.act(n, nextId))
})

root.querySelector('#clear').addEventListener('click', () => {
  state.clear()
  settings.armed = null
  redraw()
})

root.querySelector('#call').addEventListener('click', () => send(state.call(nextId)))

root.querySelector('#lang').addEventListener('click', () => {
  lang = lang === 'en' ? 'zh-CN' : 'en'
  remember(storage, lang)
  t = translator(lang)
  const url = new URL(location.href)
  if (url.searchParams.has('lang')) {
    url.searchParams.set('lang', lang)
    history.replaceState(null, '', url)
  }
  if (connection) connection.hello() // the server draws the seat's screen again, in this language
  redraw()
})

for (const name of ['confirm', 'contrast']) {
  const box = root.querySelector(`#${name}`)
  box.checked = settings[name]
  box.addEventListener('change', () => {
    settings[name] = box.checked
    settings.armed = null
    try { storage.setItem(`deckhand.${name}`, box.checked ? '1' : '0') } catch { /* this page only */ }
    redraw()
  })
}

setInterval(() => drawClock(root.querySelector('#clock'), state, t), 250)

// An answer that came without the view it made (a view lost on the way): after a few seconds the
// page says hello, and the server sends the seat's current view again. A thing no table has says
// hello every 30 s until it is registered, as a handset does.
let staleSince = null
let unknownSince = null
setInterval(() => {
  const now = performance.now()
  const stale = state.view !== null && state.awaiting === null && !state.ready()
  staleSince = stale ? (staleSince ?? now) : null
  unknownSince = state.unknown !== null ? (unknownSince ?? now) : null
  if (!connection) return
  if (stale && now - staleSince > 4000) {
    staleSince = now
    connection.hello()
  } else if (unknownSince !== null && now - unknownSince > 30000) {
    unknownSince = now
    connection.hello()
  }
}, 1000)

// A board game's view without its layout was drawn before the server knew this page (a round begun
// while the page's hello was on its way): in English, the grid as text. Once a board, the page says
// hello again, and the server draws the seat's screen for it, in its language.
const reasked = new Set()
function drawnBeforeHello (message) {
  if (message.t !== 'view' || !message.grid || message.layout) return
  const board = `${message.r}/${message.b}`
  if (reasked.has(board) || !connection) return
  reasked.add(board)
  connection.hello()
}

async function start () {
  redraw()
  const credentials = credentialsOf(location.hash)
  if (!credentials) {
    root.querySelector('#board-title').textContent = t('noSeat')
    return
  }
  let config
  try {
    const response = await fetch(new URL('config.json', location.href), { cache: 'no-store' })
    config = await response.json()
  } catch {
    config = null
  }
  if (!config || typeof config.ws !== 'string') {
    root.querySelector('#board-title').textContent = t('noConfig')
    return
  }
  const pending = new Pending(storage, credentials.thing)
  connection = new Link(config.ws, credentials, pending, nextId, {
    onMessage: (message) => {
      if (message.t === 'view') settings.armed = null
      state.receive(message)
      redraw()
      drawnBeforeHello(message)
    },
    onState: (now) => {
      link = now
      redraw()
    }
  }, () => lang)
  connection.start()
}

start()
