// Step through each table's play record: Back / Next / All (the page shows everything without it).
document.querySelectorAll("[data-replay]").forEach(function (section) {
  var steps = section.querySelectorAll("ol.steps li");
  var controls = section.querySelector(".replay-controls");
  var shown = steps.length;
  function show() { steps.forEach(function (li, i) { li.hidden = i >= shown; }); }
  controls.hidden = false;
  controls.addEventListener("click", function (event) {
    var step = event.target.getAttribute("data-step");
    if (step === null) { return; }
    if (step === "all") { shown = steps.length; }
    else { shown = Math.max(0, Math.min(steps.length, shown + Number(step))); }
    show();
  });
  shown = 0;
  show();
});
