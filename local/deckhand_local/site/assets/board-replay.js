// Step through a board game's record: First / Back / Next / Last redraw the board from the pictures
// embedded in the page (no network). Without the script the page shows the final board and every move.
document.querySelectorAll("[data-board-replay]").forEach(function (section) {
  var data = JSON.parse(section.querySelector("script.frames").textContent);
  var frames = data.frames, steps = data.steps;
  var body = section.querySelector("table.game-board tbody");
  var caption = section.querySelector(".replay-step");
  var controls = section.querySelector(".board-controls");
  var at = frames.length - 1;
  function draw() {
    var frame = frames[at];
    var marked = {};
    frame.marks.forEach(function (m) { marked[m[0] + "," + m[1]] = true; });
    while (body.firstChild) { body.removeChild(body.firstChild); }
    frame.rows.forEach(function (row, i) {
      var tr = document.createElement("tr");
      row.forEach(function (cell, j) {
        var td = document.createElement("td");
        var side = cell && (cell[0] === "0" || cell[0] === "1") ? cell[0] : "";
        td.className = cell === null ? "gap" : side ? "side-" + side : "point";
        if (marked[i + "," + j]) { td.className += " marked"; }
        td.textContent = cell === null ? "" : side ? cell.slice(1) : cell;
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    caption.textContent = steps[at] || "";
    section.setAttribute("data-at", String(at));
  }
  controls.hidden = false;
  controls.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button) { return; }
    var go = button.getAttribute("data-go");
    at = go === "first" ? 0 : go === "last" ? frames.length - 1
      : Math.max(0, Math.min(frames.length - 1, at + (go === "next" ? 1 : -1)));
    draw();
  });
  draw();
});
