"""make bench's report: its figures fitted, drawn (an SVG) and laid out as
blocks (headings, paragraphs, tables), which report.md and the site's
page (Documentation/sphinx/symwalk_bench.py) each render."""
import html
import re

CHAIN = re.compile(r"^chain-(\d+)$")
# The functions of the walk whose code size the report compares.
WALK_FUNCTIONS = ["link_path_walk", "step_into", "walk_component", "pick_link", "put_link",
                  "path_lookupat", "path_openat", "path_init", "terminate_walk",
                  "try_to_unlazy", "try_to_unlazy_next", "nd_jump_root", "nd_jump_link",
                  "lookup_fast", "handle_dots", "complete_walk", "reserve_stack",
                  "nd_alloc_stack", "drop_links", "legitimize_links"]


def fit(points):
    """Least-squares (slope, intercept) of [(x, y)]."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx
    return slope, my - slope * mx


def chain_points(cases):
    return sorted((int(CHAIN.match(c).group(1)), f["median"])
                  for c, f in cases.items() if CHAIN.match(c))


def plot(result, path):
    """instructions per stat() against the chain's length, both kernels
    (and the patched one with every event on), as an SVG."""
    series = [("pristine", result["pristine"]["figures"]["off"], "#1f77b4"),
              ("patched, events off", result["patched"]["figures"]["off"], "#d62728")]
    if "all" in result["patched"]["figures"]:
        series.append(("patched, every event on", result["patched"]["figures"]["all"],
                       "#2ca02c"))
    points = [(name, chain_points(cases), colour) for name, cases, colour in series]
    width, height, left, right, top, bottom = 640, 400, 70, 20, 30, 50
    xmax = max(x for _, p, _ in points for x, _ in p)
    ymax = max(y for _, p, _ in points for _, y in p) * 1.05

    def sx(x):
        return left + (width - left - right) * x / xmax

    def sy(y):
        return height - bottom - (height - top - bottom) * y / ymax

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" '
           'font-family="DejaVu Sans, sans-serif" font-size="12">'.format(width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="{}" y="18" text-anchor="middle">instructions per stat() through a '
           'chain of N links (QEMU icount, median of {})</text>'.format(
               width / 2, result["iterations"])]
    for i in range(6):
        y = ymax * i / 5
        out.append('<line x1="{0}" x2="{1}" y1="{2:.1f}" y2="{2:.1f}" stroke="#dddddd"/>'
                   '<text x="{3}" y="{4:.1f}" text-anchor="end">{5:,.0f}</text>'.format(
                       left, width - right, sy(y), left - 6, sy(y) + 4, y))
    for x in sorted({x for _, p, _ in points for x, _ in p}):
        out.append('<text x="{:.1f}" y="{}" text-anchor="middle">{}</text>'.format(
            sx(x), height - bottom + 16, x))
    out.append('<text x="{}" y="{}" text-anchor="middle">links followed (N)</text>'.format(
        (left + width - right) / 2, height - 12))
    for n, (name, p, colour) in enumerate(points):
        out.append('<polyline fill="none" stroke="{}" stroke-width="2" points="{}"/>'.format(
            colour, " ".join("{:.1f},{:.1f}".format(sx(x), sy(y)) for x, y in p)))
        for x, y in p:
            out.append('<circle cx="{:.1f}" cy="{:.1f}" r="3" fill="{}"/>'.format(
                sx(x), sy(y), colour))
        slope = fit(p)[0]
        out.append('<rect x="{}" y="{}" width="12" height="12" fill="{}"/>'
                   '<text x="{}" y="{}">{} ({:.1f} per link)</text>'.format(
                       left + 12, top + 8 + 18 * n, colour, left + 30, top + 18 + 18 * n,
                       html.escape(name), slope))
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


# The report is a list of blocks, rendered as Markdown here and as
# reStructuredText by the docs' directive (Documentation/sphinx/symwalk_bench.py):
# ("heading", level, text), ("para", text), ("table", header, rows),
# ("image", file name, alt text).

def measured(part):
    """When a part was measured, and at which commit of the checkout ("+":
    with changes not committed)."""
    commit = part.get("commit")
    if not commit:
        return part["date"]
    # Not "commit HASH": the kernel's automarkup links that to the kernel's git.
    return "{}, the checkout at {}{}".format(part["date"], commit.rstrip("+")[:12],
                                            "+" if commit.endswith("+") else "")


def guest_blocks(g):
    out = [("heading", 2, "In the guest: instructions, one vCPU"),
           ("para", "Measured {}. Pristine {} and patched {}, built from one .config and "
            "booted in the same run with the same initramfs, QEMU options {}; the fixture "
            "on a noatime tmpfs (guest/tools/walkbench.c). Each figure is the median of {} "
            "operations, rdtsc around the syscall (1 instruction = 1 ns under "
            "icount).".format(measured(g), g["pristine"]["release"], g["patched"]["release"],
                              g["qemu"], g["iterations"])),
           ("heading", 3, "Every namei event off"),
           ("table", ["case", "pristine", "patched", "difference", "ratio"], [
               [r["case"], "{:,}".format(r["pristine"]), "{:,}".format(r["patched"]),
                "{:+,}".format(r["delta"]), "{:+.2f} %".format(r["percent"])]
               for r in g["comparison"]])]
    s, goal = g["slopes"], g["goal"]
    out += [("para", "Per link (a least-squares fit over chain-0 to chain-40): pristine "
             "{:.1f}, patched {:.1f} instructions ({:+.1f}).".format(
                 s["pristine"], s["patched"], goal["slope_delta"])),
            ("para", "Goal (every event off: each operation within {} % of pristine, the "
             "cost per link within {:.0f} instructions): {}. The worst case is {} at "
             "{:+.2f} %; the cost per link differs by {:+.1f}.{}".format(
                 goal["percent"], goal["slope"], "MET" if goal["met"] else "NOT MET",
                 goal["worst_case"], goal["worst_percent"], goal["slope_delta"],
                 "".join(" Over the goal: " + ", ".join(
                     "{} ({:+.2f} %)".format(r["case"], r["percent"]) for r in over) + "."
                     for over in [[r for r in g["comparison"]
                                   if r["percent"] > goal["percent"]]] if over)))]
    figures, events = g["patched"]["figures"], g["patched"]["events"]
    if "all" in figures:
        rows = []
        for case, off in figures["off"].items():
            on = figures["all"][case]["median"]
            fired = sum(events.get(case, {}).values())
            rows.append([case, "{:,}".format(off["median"]), "{:,}".format(on),
                         "{:+,}".format(on - off["median"]), fired,
                         "{:.0f}".format((on - off["median"]) / fired) if fired else "-"])
        out += [("heading", 3, "Every namei event on (written to the ring buffer, nobody "
                 "reading)"),
                ("table", ["case", "off", "all on", "difference", "events fired",
                           "per event"], rows),
                ("heading", 3, "Each event enabled alone"),
                ("table", ["event", "measured on", "fired per operation", "difference",
                           "per event"], [
                    [c["event"], c["case"] or "-", c["fired"],
                     "{:+,}".format(c["delta"]) if c["delta"] is not None else "-",
                     "{:.0f}".format(c["per_event"]) if c["per_event"] is not None else "-"]
                    for c in g["event_costs"]])]
    sizes_p, sizes_q = g["pristine"]["sizes"], g["patched"]["sizes"]
    rows = [[f, sizes_p.get(f, "inlined"), sizes_q.get(f, "inlined")]
            for f in WALK_FUNCTIONS if f in sizes_p or f in sizes_q]
    rows.append(["all of fs/namei.o's text", g["pristine"]["text"], g["patched"]["text"]])
    out += [("heading", 3, "Code size (bytes, nm -S of fs/namei.o)"),
            ("table", ["function", "pristine", "patched"], rows),
            ("image", "walk-cost.svg", "instructions per stat() against the chain's length")]
    return out


def host_blocks(part):
    rows = part["rows"]
    return [("heading", 2, "On the host: wall-clock time (noisy: medians, min and max)"),
            ("para", "Measured {} on {}.".format(measured(part), part["machine"])),
            ("table", ["what", "median", "min", "max", "runs", "note"], [
                [r["name"], "{:.2f} {}".format(r["median"], r["unit"]),
                 "{:.2f}".format(r["min"]), "{:.2f}".format(r["max"]), r["runs"], r["note"]]
                for r in rows])]


def report_blocks(results):
    """The report of results.json as blocks."""
    blocks = [("heading", 1, "make bench")]
    if "guest" in results:
        blocks += guest_blocks(results["guest"])
    if "host" in results:
        blocks += host_blocks(results["host"])
    return blocks


def markdown(blocks):
    out = []
    for block in blocks:
        if block[0] == "heading":
            out += ["#" * block[1] + " " + block[2], ""]
        elif block[0] == "para":
            out += [block[1], ""]
        elif block[0] == "table":
            header, rows = block[1], block[2]
            out.append("| " + " | ".join(header) + " |")
            out.append("|" + "|".join(" --- " for _ in header) + "|")
            out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
            out.append("")
        elif block[0] == "image":
            out += ["![{}]({})".format(block[2], block[1]), ""]
    return "\n".join(out)
