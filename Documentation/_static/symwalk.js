// A click on a picture (an SVG drawn in an <object>, which keeps clicks to
// itself) opens it alone, at its full size: the <object> goes in a link.
document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("object.graphviz").forEach(function (picture) {
        var link = document.createElement("a");
        link.href = picture.data;
        link.className = "picture-full";
        link.title = "the picture alone, at its full size";
        picture.parentNode.insertBefore(link, picture);
        link.appendChild(picture);
    });
});

// A stepper (Documentation/sphinx/symwalk_stepper.py) comes hidden, so that
// a page read without JavaScript keeps only its strip: here it is shown one
// state at a time, stepped by its buttons or, once focused, the arrow keys.
document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("div.symwalk-stepper").forEach(function (stepper) {
        var states = stepper.querySelectorAll("div.stepper-state");
        var controls = document.createElement("div");
        var previous = document.createElement("button");
        var next = document.createElement("button");
        var position = document.createElement("output");
        var current = 0;
        controls.className = "stepper-controls";
        previous.type = next.type = "button";
        previous.textContent = "\u2190 previous";
        next.textContent = "next \u2192";
        position.className = "stepper-position";
        controls.append(previous, position, next);
        stepper.prepend(controls);

        function show(index) {
            current = Math.max(0, Math.min(states.length - 1, index));
            states.forEach(function (state, i) {
                state.classList.toggle("current", i === current);
            });
            position.textContent = "state " + (current + 1) + " of " + states.length;
            previous.disabled = current === 0;
            next.disabled = current === states.length - 1;
        }
        previous.addEventListener("click", function () { show(current - 1); });
        next.addEventListener("click", function () { show(current + 1); });
        stepper.addEventListener("keydown", function (event) {
            var step = {ArrowLeft: -1, ArrowRight: 1}[event.key];
            if (step) {
                event.preventDefault();
                show(current + step);
            }
        });
        stepper.tabIndex = 0;
        stepper.setAttribute("aria-label", "step through " + stepper.dataset.what +
                             " with the arrow keys");
        stepper.hidden = false;
        show(0);
    });
});
