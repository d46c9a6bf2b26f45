# A board game's grid on the handset (docs/protocol.md, "Boards"): rows of one-character glyphs the
# server drew, the last move's cells marked, the cells that may be picked first, and the template that
# names a square for the move sent (rows numbered down from ``y``, the top row's number). The handset knows no game: it draws the glyphs and names squares.
NOT_A_SQUARE = " "


def is_square(grid, cell):
    """Whether ``cell`` (row * w + col) is a square of the board (a space in its row is none)."""
    w = grid["w"]
    if cell < 0:
        return False
    i, j = cell // w, cell % w
    rows = grid["r"]
    return i < len(rows) and j < len(rows[i]) and rows[i][j] != NOT_A_SQUARE


def squares(grid):
    """Every square's cell, top row first, left to right."""
    w = grid["w"]
    out = []
    for i, row in enumerate(grid["r"]):
        for j in range(len(row)):
            if row[j] != NOT_A_SQUARE:
                out.append(i * w + j)
    return out


def name(grid, cell):
    """The square's name for the move sent: the template with its column's and row's labels and its
    place in the row (from 1)."""
    w = grid["w"]
    i, j = cell // w, cell % w
    row = grid["r"][i]
    k = 0
    for c in range(j + 1):
        if row[c] != NOT_A_SQUARE:
            k += 1
    text = grid["n"].replace("{y}", str(grid["y"] - i)).replace("{k}", str(k))
    if "{x}" in text:
        text = text.replace("{x}", grid.get("x", "")[j])
    return text


def first_choices(grid, picked):
    """The cells the cursor moves over: those that may be picked first (``s``) until one is picked,
    then every square."""
    if not picked and grid.get("s") is not None:
        return list(grid["s"])
    return squares(grid)


def may_pick(grid, picked, cell):
    """Whether ``cell`` may be picked now (the first pick only among ``s`` when the grid gives it)."""
    if not is_square(grid, cell):
        return False
    return bool(picked) or grid.get("s") is None or cell in grid["s"]


def lines(grid, picked, cursor):
    """The board as text, a mark before each glyph: ``>`` the cursor, ``*`` a picked square, ``+`` a
    square of the last move; the column labels above when the grid has them."""
    w = grid["w"]
    top = grid["y"]
    pad = max(len(str(top)), len(str(top - len(grid["r"]) + 1)))
    marked = grid.get("m", ())
    out = []
    x = grid.get("x")
    if x:
        out.append(" " * pad + "".join(" " + c for c in x))
    for i, row in enumerate(grid["r"]):
        label = str(top - i)
        parts = [" " * (pad - len(label)) + label]
        for j in range(len(row)):
            cell = i * w + j
            mark = " "
            if cell == cursor:
                mark = ">"
            elif cell in picked:
                mark = "*"
            elif cell in marked:
                mark = "+"
            parts.append(mark + row[j])
        out.append("".join(parts))
    return out
