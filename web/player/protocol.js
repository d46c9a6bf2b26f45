// The handset protocol's state on the page (docs/protocol.md): the view shown, the cards selected, the
// action on its way. It mirrors the firmware's handset (device/lib/deckhand_fw/handset.py): a view
// older than the board version our last action made is stale, one decision at a time, a refusal's
// offered ask replaces the view's for the cards still selected. It knows no game.

const MSG_ID = /^[A-Za-z0-9_.:-]{1,64}$/

/** Message ids unique per device across reloads: a random prefix per page load and a counter. */
export function messageIds (random = Math.random) {
  const prefix = 'w' + Math.floor(random() * 2 ** 40).toString(36) + Date.now().toString(36)
  let n = 0
  return () => {
    const id = `${prefix}.${++n}`
    if (!MSG_ID.test(id)) throw new Error(`bad message id ${id}`)
    return id
  }
}

/** Actions not yet answered, kept in the page's storage: after a reconnect (or a reload) they go up
 * again with the same message id, and the server applies each id once. */
export class Pending {
  constructor (storage, thing) {
    this.storage = storage
    this.key = `deckhand.pending.${thing}`
    this.items = []
    try { this.items = JSON.parse(storage.getItem(this.key) || '[]') } catch { this.items = [] }
    if (!Array.isArray(this.items)) this.items = []
  }

  add (message) {
    this.items.push({ message, sentAt: 0 })
    this.save()
  }

  answered (msg) {
    const before = this.items.length
    this.items = this.items.filter((item) => item.message.msg !== msg)
    if (this.items.length !== before) this.save()
    return this.items.length !== before
  }

  save () {
    try { this.storage.setItem(this.key, JSON.stringify(this.items)) } catch { /* kept in memory */ }
  }
}

export function askOf (view) {
  if (!view || view.st !== 'playing') return null
  const ask = view.ask
  return ask && Array.isArray(ask.o) && ask.o.length ? ask : null
}

export function selectable (ask, i) {
  const places = ask ? ask.s : undefined
  return !Array.isArray(places) || places.includes(i)
}

/** A board game's squares (docs/protocol.md, "Boards"), as the firmware names them: name → {cell,
 * row, col, glyph}; a space is no square, `n` the name's template ({x} the column's label, {y} the
 * row's number, {k} the square's place in its row from 1). */
export function squaresOf (grid) {
  const out = new Map()
  if (!grid || !Array.isArray(grid.r)) return out
  const labels = typeof grid.x === 'string' ? grid.x : ''
  grid.r.forEach((row, i) => {
    let k = 0
    for (let j = 0; j < row.length; j++) {
      if (row[j] === ' ') continue
      k += 1
      const name = String(grid.n).replace('{y}', String(grid.y - i)).replace('{k}', String(k)).replace('{x}', labels[j] || '')
      out.set(name, { cell: i * grid.w + j, row: i, col: j, glyph: row[j] })
    }
  })
  return out
}

/** The option of the ask that sends squares picked on the board (its action's `q`), or -1. */
export function moveOption (ask) {
  return ask ? ask.o.findIndex((option) => option.a && Array.isArray(option.a.q) && option.a.q.length > 0) : -1
}

/** Whole seconds left of `dl` milliseconds after `elapsed` (0: none or over), as the handset shows. */
export function countdown (leftMs, elapsedMs) {
  if (!leftMs) return 0
  const left = leftMs - elapsedMs
  return left > 0 ? Math.ceil(left / 1000) : 0
}

export class SeatState {
  constructor (now = () => performance.now()) {
    this.now = now
    this.view = null
    this.shownAt = 0
    this.selected = new Set()
    this.picked = [] // a board game's squares picked for the move, in order (their names)
    this.offered = null
    this.rejection = null // {code, why}
    this.notice = null // a catalogue key the page shows once (select the cards first …)
    this.awaiting = null
    this.ackedBoard = null
    this.ackedVersion = 0
    this.stopped = null
    this.unknown = null
    this.called = null
  }

  hand () { return this.view && Array.isArray(this.view.h) ? this.view.h : [] }

  ask () {
    const ask = askOf(this.view)
    return ask && this.offered ? this.offered : ask
  }

  options () {
    const ask = this.ask()
    return ask ? ask.o : []
  }

  /** The screen shows the latest state and no decision is on its way. */
  ready () {
    if (!this.view || this.awaiting !== null) return false
    const here = `${this.view.r}/${this.view.b}`
    return here !== this.ackedBoard || this.view.v >= this.ackedVersion
  }

  secondsLeft () {
    return this.view && askOf(this.view) ? countdown(this.view.dl, this.now() - this.shownAt) : 0
  }

  /** A message from the server; true when the screen changes. */
  receive (message) {
    const kind = message.t
    if ((kind === 'ack' || kind === 'reject') && message.msg === this.awaiting) {
      this.awaiting = null
      if (kind === 'ack' && Number.isInteger(message.v)) this.ackedVersion = message.v
      const ask = kind === 'reject' ? message.ask : null
      if (ask && Array.isArray(ask.o) && ask.o.length) this.offered = ask
    }
    if (kind === 'reject' && message.code === 'unknown_device') {
      this.unknown = message.why || 'unknown_device'
      return true
    }
    if (this.unknown !== null && (kind === 'ack' || kind === 'view')) this.unknown = null
    if (kind === 'view') {
      const current = this.view
      const same = current !== null && current.r === message.r && current.b === message.b
      if (current !== null && same && message.v < current.v) return false
      this.selected = same ? this.keptSelection(message) : new Set()
      if (!same || !this.samePosition(message)) this.picked = []
      this.view = message
      this.shownAt = this.now()
      this.rejection = null
      this.offered = null
      this.notice = null
      if (message.st !== 'stopped') this.stopped = null
      if (!same) this.called = null
      return true
    }
    if (kind === 'reject') {
      this.rejection = { code: message.code, why: message.why }
      this.picked = [] // a refused move is picked again from its first square
      return true
    }
    if (kind === 'stopped') {
      this.stopped = message.why || ''
      return true
    }
    return kind === 'ack'
  }

  /** The selection carried to a new view of the same decision (a card arriving while selecting):
   * the same tokens where they now lie; none when the decision changed or a card is gone. */
  keptSelection (message) {
    const before = askOf(this.view)
    const after = askOf(message)
    if (!before || !after || before.p !== after.p || before.o.length !== after.o.length) return new Set()
    const old = this.hand()
    const now = Array.isArray(message.h) ? message.h : []
    const kept = new Set()
    for (const i of [...this.selected].sort((a, b) => a - b)) {
      const j = now.findIndex((token, k) => token === old[i] && !kept.has(k))
      if (j < 0 || !selectable(after, j)) return new Set()
      kept.add(j)
    }
    return kept
  }

  /** The squares picked stay picked across a new view of the same position (a clock warning). */
  samePosition (message) {
    const before = this.view && this.view.grid
    const after = message.grid
    return !!before && !!after && JSON.stringify(before.r) === JSON.stringify(after.r) && moveOption(askOf(message)) >= 0
  }

  /** Pick square `name` for the move (or unpick it, and those after it): the first square among the
   * grid's `s` when it has one; a square of `s` picked later starts the move again from it (a square
   * the seat may pick first holds its own piece, never where a move goes). 'done' when the move has
   * all its squares, true when picked, false (and a notice) when it cannot be. */
  pick (name) {
    this.notice = null
    const ask = this.ask()
    const n = moveOption(ask)
    const square = squaresOf(this.view && this.view.grid).get(name)
    if (n < 0 || !square) {
      this.notice = 'notYourMove'
      return false
    }
    const fields = ask.o[n].a.q
    const first = this.view.grid.s
    const startsHere = !Array.isArray(first) || first.includes(square.cell)
    const at = this.picked.indexOf(name)
    if (at >= 0) {
      this.picked = this.picked.slice(0, at)
    } else if (this.picked.length === 0 || this.picked.length >= fields.length || (startsHere && Array.isArray(first))) {
      if (!startsHere) {
        this.notice = 'cannotPick'
        return false
      }
      this.picked = [name]
    } else {
      this.picked.push(name)
    }
    this.rejection = null
    return this.picked.length === fields.length ? 'done' : true
  }

  /** Select or unselect card i; false (and a notice) when the ask does not let it be chosen. */
  toggle (i) {
    this.notice = null
    if (i < 0 || i >= this.hand().length) return false
    if (this.selected.has(i)) {
      this.selected.delete(i)
    } else if (selectable(this.ask(), i)) {
      this.selected.add(i)
    } else {
      this.notice = 'cannotSelect'
      return false
    }
    this.offered = null // a new selection drops the choice a refusal offered for the old one
    this.rejection = null
    return true
  }

  clear () {
    this.selected.clear()
    this.picked = []
    this.offered = null
    this.notice = null
  }

  /** The act message for option n, or null (nothing asked, not ready, no cards selected). */
  act (n, nextId) {
    const options = this.options()
    if (!this.ready() || n < 0 || n >= options.length) return null
    const action = options[n].a
    const a = { k: action.k }
    if (action.v !== undefined) a.v = action.v
    if (action.d !== undefined) a.d = action.d
    if (Array.isArray(action.q) && action.q.length) {
      if (this.picked.length !== action.q.length) {
        this.notice = 'pickSquares'
        return null
      }
      a.d = Object.fromEntries(action.q.map((field, i) => [field, this.picked[i]]))
    }
    if (action.c) {
      const hand = this.hand()
      const cards = [...this.selected].sort((x, y) => x - y).map((i) => hand[i])
      if (!cards.length) {
        this.notice = 'selectFirst'
        return null
      }
      a.c = cards
    }
    return this.sent({ t: 'act', msg: nextId(), board: this.view.b, r: this.view.r, a })
  }

  /** The platform's referee call: any moment of a board, never holding up the seat's decision. */
  call (nextId) {
    if (!this.view) return null
    this.called = this.view.b
    return { t: 'act', msg: nextId(), board: this.view.b, r: this.view.r, a: { k: 'call' } }
  }

  sent (message) {
    this.rejection = null
    this.notice = null
    this.awaiting = message.msg
    this.ackedBoard = `${this.view.r}/${this.view.b}`
    this.ackedVersion = this.view.v
    return message
  }
}
