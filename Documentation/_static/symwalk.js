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

// A copy button on each code block: a click puts the block's text on the
// clipboard and the button says whether it got there. The Clipboard API
// first; where the page may not use it (no secure context, no permission),
// a selected copy of the text and the older execCommand("copy").
function copyToClipboard(text) {
    function bySelection() {
        var scratch = document.createElement("textarea");
        scratch.value = text;
        scratch.setAttribute("readonly", "");
        scratch.style.position = "fixed";
        scratch.style.opacity = "0";
        document.body.appendChild(scratch);
        scratch.select();
        var copied = document.execCommand("copy");
        scratch.remove();
        return copied ? Promise.resolve() : Promise.reject(new Error("copy refused"));
    }
    if (navigator.clipboard && window.isSecureContext)
        return navigator.clipboard.writeText(text).catch(bySelection);
    return new Promise(function (resolve) { resolve(bySelection()); });
}

document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("div.highlight > pre").forEach(function (block) {
        var button = document.createElement("button");
        var label = "copy";
        button.type = "button";
        button.className = "copy-code";
        button.textContent = label;
        button.title = "copy this block to the clipboard";
        button.addEventListener("click", function () {
            copyToClipboard(block.textContent).then(function () {
                button.textContent = "copied";
            }, function () {
                button.textContent = "not copied";
            }).then(function () {
                setTimeout(function () { button.textContent = label; }, 1500);
            });
        });
        block.parentNode.insertBefore(button, block);
    });
});
