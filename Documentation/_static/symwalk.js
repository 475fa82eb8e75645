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
