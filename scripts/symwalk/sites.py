"""The sites of the namei events in the patched tree's fs/namei.c, read from
its source: each namei_trace(EVENT, args...) call, the function around it
and the argument it passes for each parameter of the event's helper,
namei_trace_EVENT(). site_of() says which sites could have printed a trace
line: those whose constant arguments (an enum constant, true or false, a
number, "") print as the line's values do, unless the helper changes them. (In gdb, lx-walk-trace finds the
sites in the kernel's jump table instead: gdb-scripts/symwalk_gdb/sites.py.)"""
import os
import re

from symwalk import events

NAMEI_C = "fs/namei.c"
CALL = re.compile(r"\b{}_trace\((\w+)\s*,".format(events.SYSTEM))
HELPER = re.compile(r"^static\b[^;{{]*\b{}_trace_(\w+)\(([^)]*)\)\s*\{{".format(events.SYSTEM),
                    re.M)
# A line that opens a function's definition: a name and "(" at the start
# of a line, not a preprocessor line, a closing brace or a declaration.
DEFINITION = re.compile(r"^[A-Za-z_].*?\b(\w+)\s*\(")


class Site:
    """One call of an event's helper: the event (namei_EVENT), its line of
    fs/namei.c, the function it is in, {parameter: argument's text} and the
    parameters the helper may change before it prints them."""

    def __init__(self, event, line, function, arguments, changed):
        self.event, self.line, self.function = event, line, function
        self.arguments, self.changed = arguments, changed

    def __repr__(self):
        return "{}() {}:{}".format(self.function, NAMEI_C, self.line)


def helper_parameters(text):
    """{event: ([parameter], {parameter its body assigns: {constant: the
    constants it may become}, or None when the assignment is not one of
    "if (P == A ...) P = B;"})} of the helpers namei_trace_EVENT() text
    defines (namei_trace_eloop() turns NO_SYMLINKS into NOSYMFOLLOW)."""
    helpers = {}
    for m in HELPER.finditer(text):
        names = [re.search(r"(\w+)\s*$", p).group(1) for p in m.group(2).split(",")]
        body = text[m.end():text.find("\n}", m.end())]
        changed = {}
        for name in names:
            assignments = re.findall(r"\b{}\s*=(?!=)".format(name), body)
            remaps = re.findall(r"if\s*\(\s*{0}\s*==\s*(\w+)[^;]*?\)\s*{0}\s*=\s*(\w+)\s*;"
                                .format(name), body)
            if assignments:
                changed[name] = None if len(remaps) != len(assignments) else {}
                for before, after in remaps if changed[name] is not None else ():
                    changed[name].setdefault(before, set()).add(after)
        helpers["{}_{}".format(events.SYSTEM, m.group(1))] = (names, changed)
    return helpers


def read(text):
    """[Site] of fs/namei.c's text, in the file's order."""
    lines = text.split("\n")
    parameters = helper_parameters(text)
    sites = []
    for number, line in enumerate(lines, 1):
        m = CALL.search(line)
        if not m or line.lstrip().startswith(("#", "*", "/*")):
            continue
        event = "{}_{}".format(events.SYSTEM, m.group(1))
        call, following = line[m.start():], number
        while call.count("(") > call.count(")") and following < len(lines):
            call += " " + lines[following].strip()
            following += 1
        arguments = events.split_args(call[call.index("(") + 1:call.rindex(")")])[1:]
        names, changed = parameters.get(event, (None, None))
        if names is None or len(names) != len(arguments):
            raise ValueError("{}:{}: {} passes {} arguments, its helper {}_trace_{}() takes "
                             "{}".format(NAMEI_C, number, event, len(arguments), events.SYSTEM,
                                         m.group(1), "none" if names is None else len(names)))
        function = None
        for above in reversed(lines[:number - 1]):
            d = DEFINITION.match(above)
            if d and not above.startswith(("#", "}")) and not above.rstrip().endswith(";"):
                function = d.group(1)
                break
        sites.append(Site(event, number, function, dict(zip(names, arguments)), changed))
    return sites


def read_tree(tree):
    with open(os.path.join(tree, NAMEI_C), errors="replace") as f:
        return read(f.read())


def printed_constants(vocabulary, site, parameter):
    """What the trace may print for a site's argument, if it is a constant,
    else None (a variable, an expression, a parameter the helper changes
    in a way not known)."""
    key = vocabulary.events[site.event].key(parameter)
    argument = site.arguments[parameter]
    if key is None:
        return None
    symbol = vocabulary.symbol(argument)
    if parameter in site.changed:
        remaps = site.changed[parameter]
        if remaps is None or symbol is None:
            return None
        return {key.text(vocabulary.symbol(c).value)
                for c in {argument} | remaps.get(argument, set())}
    if symbol is not None:
        return {key.text(symbol.value)}
    if argument in ("true", "false"):
        return {key.text(int(argument == "true"))}
    if re.fullmatch(r"-?\d+", argument):
        return {key.text(int(argument))}
    if argument == '""':
        return {""}
    return None


def site_of(sites, vocabulary, event, values):
    """The sites of event (namei_EVENT) that could have printed values,
    {key: printed text}: none of their constant arguments prints otherwise.
    Of those, the ones with the most constants that print as values did:
    a site that passes error=0 printed "error=0", not one that passes a
    variable."""
    fitting = []
    for site in sites:
        if site.event != event:
            continue
        matched = 0
        for parameter in site.arguments:
            printed = printed_constants(vocabulary, site, parameter)
            if printed is None or parameter not in values:
                continue
            if values[parameter] not in printed:
                break
            matched += 1
        else:
            fitting.append((matched, site))
    best = max((matched for matched, _ in fitting), default=0)
    return [site for matched, site in fitting if matched == best]
