// A board game's board, drawn from the view's `grid` and `layout` (docs/protocol.md, "Boards" and
// "Board layouts"): the server says where every square is, which lines join them, what marks lie
// under them and what each glyph is called; this module knows no game. Lines and marks are one SVG
// under the squares; each square is a button placed over it in percent of the board, so the board
// scales to the screen's width. Marks for tests: data-square, data-piece, data-selectable, data-last,
// data-picked (docs/client.md).
import { squaresOf } from './protocol.js'

const SVG = 'http://www.w3.org/2000/svg'
const PAD = 0.12 // units around the outermost squares

function svg (tag, attributes = {}, text = null) {
  const node = document.createElementNS(SVG, tag)
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value))
  if (text !== null) node.textContent = text
  return node
}

function round (n) { return Math.round(n * 1000) / 1000 }

/** Every square's centre in the layout's units (turned half round when `flip`), and the bounds. */
export function geometry (grid, layout) {
  const squares = squaresOf(grid)
  const sx = Number(layout.sx) || 1
  const sy = Number(layout.sy) || 1
  const ys = Array.isArray(layout.ys) ? layout.ys : null
  const size = Array.isArray(layout.size) ? layout.size.map(Number) : [1, 1]
  const raw = (sq) => [sq.col * sx, ys ? Number(ys[sq.row]) : sq.row * sy]
  let right = 0
  let bottom = 0
  for (const sq of squares.values()) {
    const [x, y] = raw(sq)
    right = Math.max(right, x)
    bottom = Math.max(bottom, y)
  }
  const at = new Map()
  let minX = Infinity; let minY = Infinity; let maxX = -Infinity; let maxY = -Infinity
  for (const [name, sq] of squares) {
    let [x, y] = raw(sq)
    if (layout.flip) { x = right - x; y = bottom - y }
    at.set(name, [x, y])
    minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y)
  }
  const left = minX - size[0] / 2 - PAD
  const top = minY - size[1] / 2 - PAD
  return { squares, at, size, left, top, width: maxX - minX + size[0] + 2 * PAD, height: maxY - minY + size[1] + 2 * PAD }
}

function drawSpot (group, kind, tint, x, y, size, bounds) {
  const cls = `spot spot-${kind}${tint ? ' tint-' + tint : ''}`
  const [w, h] = size
  if (kind === 'dot') group.append(svg('circle', { class: cls, cx: x, cy: y, r: 0.11 }))
  else if (kind === 'ring') group.append(svg('ellipse', { class: cls, cx: x, cy: y, rx: w * 0.42, ry: h * 0.52 }))
  else if (kind === 'box') group.append(svg('rect', { class: cls, x: round(x - w * 0.45), y: round(y - h * 0.4), width: round(w * 0.9), height: round(h * 0.8), rx: 0.04 }))
  else if (kind === 'arch') group.append(svg('rect', { class: cls, x: round(x - w * 0.45), y: round(y - h * 0.45), width: round(w * 0.9), height: round(h * 0.9), rx: round(h * 0.4) }))
  else if (kind === 'hole') group.append(svg('circle', { class: cls, cx: x, cy: y, r: round(Math.min(w, h) * 0.28) }))
  else if (kind === 'cross') {
    // The corner marks of a point where a soldier or cannon starts: four small angles, inside the board.
    for (const dx of [-1, 1]) {
      for (const dy of [-1, 1]) {
        if (x + dx * 0.3 < bounds.minX || x + dx * 0.3 > bounds.maxX) continue
        const d = `M${round(x + dx * 0.1)} ${round(y + dy * 0.28)}L${round(x + dx * 0.1)} ${round(y + dy * 0.1)}L${round(x + dx * 0.28)} ${round(y + dy * 0.1)}`
        group.append(svg('path', { class: cls, d }))
      }
    }
  }
}

/** The SVG of the board's lines, marks, words and the last move's path. */
function drawing (grid, layout, g) {
  const root = svg('svg', { class: 'lines', viewBox: `${round(g.left)} ${round(g.top)} ${round(g.width)} ${round(g.height)}`, 'aria-hidden': 'true', focusable: 'false' })
  const xs = [...g.at.values()].map((p) => p[0])
  const bounds = { minX: Math.min(...xs), maxX: Math.max(...xs) }
  const spots = svg('g')
  for (const [kind, tint, names] of Array.isArray(layout.spots) ? layout.spots : []) {
    for (const name of names) {
      const p = g.at.get(name)
      if (p) drawSpot(spots, kind, tint, p[0], p[1], g.size, bounds)
    }
  }
  const lines = svg('g')
  for (const [from, to, style] of Array.isArray(layout.lines) ? layout.lines : []) {
    const a = g.at.get(from)
    const b = g.at.get(to)
    if (!a || !b) continue
    const attributes = { x1: a[0], y1: a[1], x2: b[0], y2: b[1] }
    lines.append(svg('line', { ...attributes, class: `ln ln-${style || 'plain'}` }))
    if (style === 'rail') lines.append(svg('line', { ...attributes, class: 'ln ln-sleepers' }))
  }
  root.append(lines, spots)
  for (const [from, to, text] of Array.isArray(layout.words) ? layout.words : []) {
    const a = g.at.get(from)
    const b = g.at.get(to)
    if (a && b) root.append(svg('text', { class: 'words', x: round((a[0] + b[0]) / 2), y: round((a[1] + b[1]) / 2), 'text-anchor': 'middle', 'dominant-baseline': 'central' }, text))
  }
  const path = (Array.isArray(layout.path) ? layout.path : []).map((name) => g.at.get(name)).filter(Boolean)
  if (path.length > 1) {
    root.append(svg('polyline', { class: 'path', points: path.map((p) => p.map(round).join(',')).join(' ') }))
    path.forEach((p, i) => root.append(svg('circle', { class: i ? 'path-point' : 'path-start', cx: p[0], cy: p[1], r: 0.14 })))
  }
  return root
}

/** The square's accessible name: its name, then what stands on it or what it is ("h2 红马", "b3 camp"). */
function squareLabel (name, glyph, layout) {
  const piece = layout.pieces && layout.pieces[glyph]
  if (piece) return `${name} ${piece[0]}`
  const what = layout.empty && layout.empty[glyph]
  return what ? `${name} ${what}` : name
}

/** Draw the board into `box`: `asking` whether the seat is asked a move (its squares may be picked),
 * `picked` the squares picked so far, in order; `emptyName` the word for a square with nothing on it. */
export function drawBoard (box, view, asking, picked, emptyName) {
  const grid = view && view.grid
  const layout = view && view.layout
  if (!grid || !layout || typeof layout !== 'object') {
    box.replaceChildren()
    box.hidden = true
    return false
  }
  box.hidden = false
  const g = geometry(grid, layout)
  box.style.aspectRatio = `${round(g.width)} / ${round(g.height)}`
  box.setAttribute('aria-label', layout.name || '')
  const first = Array.isArray(grid.s) ? new Set(grid.s) : null
  const last = new Set(Array.isArray(grid.m) ? grid.m : [])
  box.classList.toggle('firsts', !!first)
  box.classList.toggle('asking', asking)
  const [w, h] = g.size
  const shape = layout.shape === 'tile' ? 'tile' : 'disc'
  const buttons = []
  for (const [name, sq] of g.squares) {
    const [x, y] = g.at.get(name)
    const button = document.createElement('button')
    button.type = 'button'
    button.className = 'sq'
    button.dataset.square = name
    button.style.left = `${round((x - w / 2 - g.left) / g.width * 100)}%`
    button.style.top = `${round((y - h / 2 - g.top) / g.height * 100)}%`
    button.style.width = `${round(w / g.width * 100)}%`
    button.style.height = `${round(h / g.height * 100)}%`
    const piece = layout.pieces && layout.pieces[sq.glyph]
    button.setAttribute('aria-label', piece || (layout.empty && layout.empty[sq.glyph]) ? squareLabel(name, sq.glyph, layout) : `${name} ${emptyName}`)
    if (piece) {
      button.dataset.piece = sq.glyph
      const face = String(piece[2] || '')
      // The face's words as large as the square allows: container units of the board's width.
      const units = Math.min(w * 0.8 / Math.max(face.length, 1), h * 0.6)
      const span = document.createElement('span')
      span.className = `piece ${shape} c-${piece[1]}`
      span.setAttribute('aria-hidden', 'true')
      span.style.fontSize = `${round(units / g.width * 100)}cqw`
      span.textContent = face
      button.append(span)
    }
    if (asking && (!first || first.has(sq.cell))) button.dataset.selectable = 'true'
    if (last.has(sq.cell)) button.dataset.last = 'true'
    const at = picked.indexOf(name)
    button.setAttribute('aria-pressed', at >= 0 ? 'true' : 'false')
    if (at >= 0) button.dataset.picked = String(at + 1)
    buttons.push(button)
  }
  box.replaceChildren(drawing(grid, layout, g), ...buttons)
  return true
}
