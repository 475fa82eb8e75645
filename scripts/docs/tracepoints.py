"""The events of a tracepoint header (include/trace/events/*.h): their
names, classes, prototypes, fields and print formats, parsed from
TRACE_EVENT, DECLARE_EVENT_CLASS, DEFINE_EVENT and DEFINE_EVENT_PRINT;
the values of the fields printed through __print_symbolic(), each with the
comment of its enum constant; and the header's own leading comment."""
import copy
import re

MACROS = ("TRACE_EVENT", "DECLARE_EVENT_CLASS", "DEFINE_EVENT", "DEFINE_EVENT_PRINT",
          "TRACE_EVENT_CONDITION", "DEFINE_EVENT_CONDITION")
MACRO_START = re.compile(r"^(%s)\(" % "|".join(MACROS), re.M)
FIELD_MACRO = re.compile(r"(__\w+)\(")
C_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
ENTRY_FIELD = re.compile(r"__entry->(\w+)|__get_str\((\w+)\)|__get_dynamic_array\((\w+)\)")
KEY_CONV = re.compile(r'(\w+)=\\?"?(%[-#0-9.*]*l{0,2}[a-zA-Z])')
SYMBOLIC_MACRO = re.compile(r"^#define\s+(\w+)\(\w+\)\s*\\?\s*__print_symbolic\(", re.M)
SYMBOL = re.compile(r'\{\s*(\w+)\s*,\s*"([^"]*)"\s*\}')
ENUM_COMMENT = re.compile(r"^[ \t]*(\w+)\s*(?:=[^,]*)?,?\s*/\*\s*(.*?)\s*\*/", re.M)
MACRO_CALL = re.compile(r"^(\w+)\(")


def balanced(text, start):
    """The text inside the parenthesis opened at text[start] ('('), and the
    index just past its closing one. Strings and comments are skipped."""
    depth = 0
    i = start
    while i < len(text):
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < len(text) and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j
        elif text.startswith("/*", i):
            i = text.index("*/", i) + 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return text[start + 1:i], i + 1
        i += 1
    raise ValueError("unbalanced parenthesis at offset {}".format(start))


def split_args(text):
    """Split a macro's arguments at the commas of the top level."""
    args, depth, current, i = [], 0, [], 0
    while i < len(text):
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < len(text) and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            current.append(text[i:j + 1])
            i = j + 1
            continue
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        if c == "," and depth == 0:
            args.append("".join(current).strip())
            current = []
        else:
            current.append(c)
        i += 1
    if "".join(current).strip():
        args.append("".join(current).strip())
    return args


def unwrap(arg, name):
    """The inside of TP_PROTO(...), TP_STRUCT__entry(...), ..."""
    arg = arg.strip()
    if not arg.startswith(name + "("):
        return None
    inside, _ = balanced(arg, len(name))
    return inside


def squash(text):
    return re.sub(r"\s+", " ", text).strip()


class Field:
    def __init__(self, macro, args):
        self.macro = macro
        if macro in ("__string", "__string_len"):
            self.name, self.ctype = args[0], "char[] (string)"
        elif macro in ("__dynamic_array",):
            self.name, self.ctype = args[1], "{}[] (dynamic)".format(args[0])
        elif macro in ("__array", "__array_desc"):
            self.name, self.ctype = args[1], "{}[{}]".format(args[0], args[2])
        else:
            self.name, self.ctype = args[1] if len(args) > 1 else args[0], args[0]
        self.printed_as = []    # the keys the format prints it under
        self.values = []        # (printed value, meaning) of a symbolic field


class Event:
    def __init__(self, name, kind, cls=None):
        self.name, self.kind, self.cls = name, kind, cls
        self.proto = self.args = self.printk_format = None
        self.printk_args = []
        self.fields = []
        self.comment = ""
        self.line = 0


def parse_fields(entry):
    fields = []
    pos = 0
    while True:
        m = FIELD_MACRO.search(entry, pos)
        if not m:
            break
        inside, pos = balanced(entry, m.end() - 1)
        fields.append(Field(m.group(1), [squash(a) for a in split_args(inside)]))
    return fields


def parse_printk(text):
    args = split_args(text)
    fmt = "".join(C_STRING.findall(args[0])) if args else ""
    return fmt, [squash(a) for a in args[1:]]


def match_fields(event, symbolic):
    """Name each field by the keys its value is printed under (one field
    may be printed twice: a walk's flags as attempt= and flags=), and give a
    field printed through a __print_symbolic() macro its values."""
    event.fields = [copy.copy(f) for f in event.fields]
    for f in event.fields:
        f.printed_as, f.values = [], []
    keys = KEY_CONV.findall(event.printk_format or "")
    conversions = re.findall(r"%[-#0-9.*]*l{0,2}[a-zA-Z]", event.printk_format or "")
    for i, arg in enumerate(event.printk_args):
        if i >= len(conversions):
            break
        key = None
        for k, conv in keys:
            if conv == conversions[i]:
                key = k
                keys.remove((k, conv))
                break
        macro = MACRO_CALL.match(arg)
        for m in ENTRY_FIELD.finditer(arg):
            name = next(g for g in m.groups() if g)
            for f in event.fields:
                if f.name == name and key and key not in f.printed_as:
                    f.printed_as.append(key)
                    if macro and macro.group(1) in symbolic:
                        f.values = symbolic[macro.group(1)]
    return event


def symbolic_values(text):
    """{macro: [(printed value, the comment of its enum constant)]} for each
    macro of the header that wraps __print_symbolic()."""
    comments = dict(ENUM_COMMENT.findall(text))
    found = {}
    for m in SYMBOLIC_MACRO.finditer(text):
        inside, _ = balanced(text, m.end() - 1)
        found[m.group(1)] = [(value, comments.get(const, ""))
                             for const, value in SYMBOL.findall(inside)]
    return found


def comment_text(body):
    """The text of a C comment's body, without the stars of its lines."""
    lines = [re.sub(r"^\s*\*\s?", "", line) for line in body.split("\n")]
    return "\n".join(lines).strip()


def header_comment(text):
    """The comment that opens the header, after its SPDX line: what it
    says of all its events."""
    m = re.match(r"\s*(?:/\*\s*SPDX[^\n]*\*/\s*)?/\*(?!\s*SPDX)(.*?)\*/", text, re.S)
    return comment_text(m.group(1)) if m else ""


def leading_comment(text, start):
    """The C comment that ends right above offset start, if any."""
    before = text[:start].rstrip()
    if not before.endswith("*/"):
        return ""
    begin = before.rfind("/*")
    return comment_text(before[begin + 2:-2]).lstrip("*").strip()


def parse(text):
    """The events of a tracepoint header, in the order it defines them."""
    classes = {}
    events = []
    symbolic = symbolic_values(text)
    for m in MACRO_START.finditer(text):
        macro = m.group(1)
        inside, _ = balanced(text, m.end() - 1)
        args = split_args(inside)
        line = text.count("\n", 0, m.start()) + 1
        comment = leading_comment(text, m.start())
        if macro in ("DEFINE_EVENT", "DEFINE_EVENT_PRINT", "DEFINE_EVENT_CONDITION"):
            cls = classes.get(args[0])
            event = Event(args[1], "event", args[0])
            if cls:
                event.proto, event.args = cls.proto, cls.args
                event.fields = list(cls.fields)
                event.printk_format, event.printk_args = cls.printk_format, cls.printk_args
            for a in args[2:]:
                for part, attr in (("TP_PROTO", "proto"), ("TP_ARGS", "args")):
                    inner = unwrap(a, part)
                    if inner is not None:
                        setattr(event, attr, squash(inner))
                inner = unwrap(a, "TP_printk")
                if inner is not None:
                    event.printk_format, event.printk_args = parse_printk(inner)
        else:
            kind = "class" if macro == "DECLARE_EVENT_CLASS" else "event"
            event = Event(args[0], kind)
            for a in args[1:]:
                for part, attr in (("TP_PROTO", "proto"), ("TP_ARGS", "args")):
                    inner = unwrap(a, part)
                    if inner is not None:
                        setattr(event, attr, squash(inner))
                inner = unwrap(a, "TP_STRUCT__entry")
                if inner is not None:
                    event.fields = parse_fields(inner)
                inner = unwrap(a, "TP_printk")
                if inner is not None:
                    event.printk_format, event.printk_args = parse_printk(inner)
        event.comment = comment
        event.line = line
        match_fields(event, symbolic)
        if event.kind == "class":
            classes[event.name] = event
        else:
            events.append(event)
    return events, classes


def trace_system(text):
    m = re.search(r"^#define\s+TRACE_SYSTEM\s+(\w+)", text, re.M)
    return m.group(1) if m else None


if __name__ == "__main__":
    import sys
    with open(sys.argv[1]) as f:
        src = f.read()
    evs, _ = parse(src)
    for ev in evs:
        print(ev.name, ev.cls or "", "|", ev.printk_format)
        for fl in ev.fields:
            print("   ", fl.ctype, fl.name, "->", " ".join(fl.printed_as),
                  " ".join(v for v, _ in fl.values))
