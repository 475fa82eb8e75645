# SPDX-License-Identifier: GPL-2.0
"""The namei events' vocabulary, read from the patched tree's
include/trace/events/namei.h: each event's class, fields and printed keys,
the value and printed name of each constant of the series' enums, and what
the header's comments say of them. The fuzzer (a C header made from it),
lx-walk-trace and the site read an event's meaning here, and nowhere else.

    python3 scripts/symwalk/events.py TREE --c-header OUT

writes the C header; without --c-header, prints the vocabulary.
"""
import argparse
import os
import re
import sys

HEADER = "include/trace/events/namei.h"
# The header of the walk's flags (show_walk_mode() tests one of them).
FLAGS_HEADER = "include/linux/namei.h"
SYSTEM = "namei"


def comment_text(body):
    """A C comment's text, without the stars of its lines."""
    return "\n".join(re.sub(r"^\s*\*\s?", "", line) for line in body.split("\n")).strip()


def split_args(text):
    """A C argument list split at its top-level commas."""
    args, depth, start, quoted = [], 0, 0, False
    for i, c in enumerate(text):
        if c == '"' and text[i - 1] != "\\":
            quoted = not quoted
        elif not quoted and c in "({[":
            depth += 1
        elif not quoted and c in ")}]":
            depth -= 1
        elif not quoted and c == "," and depth == 0:
            args.append(text[start:i].strip())
            start = i + 1
    last = text[start:].strip()
    return args + [last] if last or args else args


def macro_call(text, name, start=0):
    """(arguments, end) of the first call of name( ... ) at or after start,
    or None."""
    m = re.compile(r"\b{}\s*\(".format(re.escape(name))).search(text, start)
    if not m:
        return None
    depth, quoted = 0, False
    for i in range(m.end() - 1, len(text)):
        c = text[i]
        if c == '"' and text[i - 1] != "\\":
            quoted = not quoted
        elif not quoted and c == "(":
            depth += 1
        elif not quoted and c == ")":
            depth -= 1
            if not depth:
                return split_args(text[m.end():i]), i + 1
    raise ValueError("{}( is not closed".format(name))


FORMAT_END = re.compile(r"\s*(?:,|$)")
STRING_JOINT = re.compile(r'\s*"')


def print_format(text):
    r"""(format, [argument]) of a print format: what TP_printk()'s parentheses
    hold, or a format file's line after "print fmt: ". The format is the
    text as the kernel prints it. TP_printk() escapes a quote inside it
    (name=\"%s\") and may cut it in C strings put side by side; a format
    file writes it between quotes as it is (name="%s"). So a quote ends the
    format where a comma or the end of the text follows it, joins it to a
    next string where another quote follows (but one that ends the format:
    body="%s" remnant="%s"", ...), and is part of it elsewhere."""
    start = text.find('"')
    if start < 0 or text[:start].strip():
        raise ValueError("not a print format: {}".format(text))
    fmt, i = [], start + 1
    while i < len(text):
        c = text[i]
        if c == "\\" and text[i + 1:i + 2] in ('"', "\\"):
            fmt.append(text[i + 1])
            i += 2
            continue
        if c == '"':
            end = FORMAT_END.match(text, i + 1)
            if end:
                return "".join(fmt), split_args(text[end.end():])
            joint = STRING_JOINT.match(text, i + 1)
            if joint and not FORMAT_END.match(text, joint.end()):
                i = joint.end()
                continue
        fmt.append(c)
        i += 1
    raise ValueError("a print format whose quote is not closed: {}".format(text))


# A conversion of a print format, with the key= before it if any (a string
# key prints its value between quotes: name="%s").
CONVERSION = re.compile(r'(?:(\w+)="?)?%(?!%)[-#0-9.]*[a-zA-Z]+')


def conversions(fmt):
    """The key of each conversion of a print format, or None where no key=
    comes before it."""
    return [m.group(1) for m in CONVERSION.finditer(fmt)]


# In a format file: a field's declaration, the fields an argument of the
# print fmt reads, a value and its name in __print_symbolic() or
# __print_flags(), and a mode's test of a flag (show_walk_mode()).
FIELD = re.compile(r"^\s*field:(?P<decl>.+?);\s*offset:")
REFERENCE = re.compile(r"REC->(\w+)|__get_str\((\w+)\)|__get_dynamic_array\((\w+)\)")
SYMBOL = re.compile(r'\{\s*(0x[0-9a-fA-F]+|-?\d+)\s*,\s*"([^"]*)"\s*\}')
MODE = re.compile(r'\(\(REC->\w+\)\s*&\s*(0x[0-9a-fA-F]+|\d+)\s*\?\s*"([^"]*)"\s*:\s*'
                  r'"([^"]*)"\)$')


class Printed:
    """A conversion of a format file's print fmt: its key (None without a
    key=), its argument and the fields that reads; the (value, name)s of a
    __print_symbolic() or a __print_flags() (flags says which), or the flag
    a mode tests and its names when set and when not (choice)."""

    def __init__(self, key, arg):
        self.key, self.arg = key, arg
        self.fields = [next(g for g in r if g) for r in REFERENCE.findall(arg)]
        self.symbols = [(int(v, 0), name) for v, name in SYMBOL.findall(arg)]
        self.flags = "__print_flags" in arg
        mode = MODE.match(arg)
        self.flag = int(mode.group(1), 0) if mode else None
        self.choice = mode.group(2, 3) if mode else None


class Format:
    """One event's format file, as tracefs prints it: its fields but the
    common ones, [(field, C type)], its print fmt's format, and a Printed
    of each conversion."""

    def __init__(self, name, text):
        self.name, self.text = name, text.strip("\n")
        self.fields = []
        self.print_fmt, self.printed = "", []
        for line in self.text.split("\n"):
            m = FIELD.match(line)
            if m and " common_" not in m.group("decl"):
                ctype, _, field = m.group("decl").rpartition(" ")
                if ctype.startswith("__data_loc "):
                    ctype = ctype[len("__data_loc "):] + " (dynamic)"
                self.fields.append((field, ctype))
            elif line.startswith("print fmt: "):
                self.print_fmt, args = print_format(line[len("print fmt: "):])
                self.printed = [Printed(key, args[i] if i < len(args) else "")
                                for i, key in enumerate(conversions(self.print_fmt))]

    def printed_as(self, field):
        """The keys that print the field."""
        return [p.key for p in self.printed if p.key and field in p.fields]


class Symbol:
    """A constant of an enum: its value, the name the trace prints for it,
    and what its comment says."""

    def __init__(self, constant, value, meaning):
        self.constant, self.value, self.meaning = constant, value, meaning
        self.printed = None

    def __repr__(self):
        return "{}={}({})".format(self.constant, self.value, self.printed)


class Key:
    """A key=value of an event's trace line: the field it prints, and how.
    symbols: the enum constants of a __print_symbolic() key; flag: the flag
    a mode key tests (show_walk_mode()), its names when set and when not."""

    def __init__(self, name, field, symbols=None, flag=None, choice=None):
        self.name, self.field = name, field
        self.symbols = symbols or []
        self.flag, self.choice = flag, choice

    def text(self, value):
        """What the trace prints for a field's number."""
        if self.flag is not None:
            return self.choice[0] if value & self.flag else self.choice[1]
        for s in self.symbols:
            if s.value == value:
                return s.printed
        return str(value)


class Event:
    def __init__(self, name, cls, comment, fields, keys):
        self.name, self.cls, self.comment = name, cls, comment
        self.fields = fields            # [(field, C type, is a string)]
        self.keys = keys                # [Key], in the line's order

    @property
    def short(self):
        """Its name without the system's prefix: link_push."""
        return self.name[len(SYSTEM) + 1:]

    def key(self, name):
        return next((k for k in self.keys if k.name == name), None)


class Vocabulary:
    def __init__(self, text, flags_text):
        text = self.text = re.sub(r"\\\n", " ", text)     # macros' continued lines
        m = re.match(r"\s*(?:/\*\s*SPDX[^\n]*\*/\s*)?/\*(?!\s*SPDX)(.*?)\*/", text, re.S)
        self.comment = comment_text(m.group(1)) if m else ""
        limit = re.search(r"^#define\s+NAMEI_TRACE_NAME_MAX\s+(\d+)", text, re.M)
        if not limit:
            raise ValueError("{} defines no NAMEI_TRACE_NAME_MAX".format(HEADER))
        self.name_max = int(limit.group(1))
        self.enums = self.read_enums(text)
        self.symbols = {s.constant: s for symbols in self.enums.values() for s in symbols}
        self.tables = self.read_tables(text)
        self.flags = {m.group(1): int(m.group(2), 0) for m in re.finditer(
            r"^#define\s+(LOOKUP_\w+)\s+(0x[0-9a-fA-F]+|\d+)\b", flags_text, re.M)}
        self.flags.update({m.group(1): 1 << int(m.group(2)) for m in re.finditer(
            r"^#define\s+(LOOKUP_\w+)\s+BIT\((\d+)\)", flags_text, re.M)})
        self.events = self.read_events(text)

    @staticmethod
    def read_enums(text):
        """{enum: [Symbol]}, each constant valued as C values it."""
        enums = {}
        for m in re.finditer(r"^enum\s+(\w+)\s*\{(.*?)^\};", text, re.M | re.S):
            symbols, value = [], 0
            for line in m.group(2).split("\n"):
                c = re.match(r"\s*(\w+)\s*(?:=\s*([^,/]+?))?\s*,?\s*(?:/\*\s*(.*?)\s*\*/)?\s*$",
                             line)
                if not c or not c.group(1):
                    continue
                if c.group(2):
                    value = int(c.group(2), 0)
                symbols.append(Symbol(c.group(1), value, c.group(3) or ""))
                value += 1
            enums[m.group(1)] = symbols
        return enums

    def read_tables(self, text):
        """{macro: [Symbol]}: the __print_symbolic() tables of the show_*()
        macros, each symbol given the name the trace prints for it."""
        tables = {}
        for m in re.finditer(r"^#define\s+(show_\w+)\(\w+\)", text, re.M):
            call = macro_call(text, "__print_symbolic", m.end())
            if not call or text.find("#define", m.end(), text.find("__print_symbolic", m.end())) >= 0:
                continue
            symbols = []
            for entry in call[0][1:]:
                e = re.match(r'\{\s*(\w+)\s*,\s*"([^"]*)"\s*\}', entry)
                if not e or e.group(1) not in self.symbols:
                    raise ValueError("{}: {} is not a constant of the header's enums".format(
                        m.group(1), entry))
                symbol = self.symbols[e.group(1)]
                symbol.printed = e.group(2)
                symbols.append(symbol)
            tables[m.group(1)] = symbols
        return tables

    def read_events(self, text):
        """{event: Event}, in the header's order."""
        classes, events = {}, {}
        starts = re.compile(r"(?:/\*((?:(?!\*/).)*)\*/\s*\n)?^(DECLARE_EVENT_CLASS|TRACE_EVENT|"
                            r"DEFINE_EVENT_PRINT|DEFINE_EVENT)\(", re.S | re.M)
        for m in starts.finditer(text):
            args, _ = macro_call(text, m.group(2), m.start(2))
            kind, comment = m.group(2), comment_text(m.group(1) or "")
            if kind in ("DECLARE_EVENT_CLASS", "TRACE_EVENT"):
                fields = self.read_fields(args[3])
                keys = self.read_printk(args[5], fields)
                if kind == "DECLARE_EVENT_CLASS":
                    classes[args[0]] = (fields, keys)
                else:
                    events[args[0]] = Event(args[0], None, comment, fields, keys)
                continue
            cls, name = args[0], args[1]
            fields, keys = classes[cls]
            if kind == "DEFINE_EVENT_PRINT":
                keys = self.read_printk(args[4], fields)
            events[name] = Event(name, cls, comment, fields, keys)
        if not events:
            raise ValueError("{} defines no event".format(HEADER))
        return events

    @staticmethod
    def read_fields(entry):
        inside = entry[entry.index("(") + 1:entry.rindex(")")]
        fields = []
        for m in re.finditer(r"(__field|__string_len|__string|__dynamic_array)\(([^()]*(?:\([^()]*\)[^()]*)*)\)",
                             inside):
            args = split_args(m.group(2))
            if m.group(1) == "__field":
                fields.append((args[1], args[0], False))
            elif m.group(1) == "__dynamic_array":
                fields.append((args[1], args[0] + "[]", args[0] == "char"))
            else:
                fields.append((args[0], "char[]", True))
        return fields

    def read_printk(self, printk, fields):
        """The keys of a TP_printk(): each conversion's key, and the field
        its argument reads."""
        fmt, fmt_args = print_format(printk[printk.index("(") + 1:printk.rindex(")")])
        names = {f for f, _, _ in fields}
        keys = []
        for i, name in enumerate(k for k in conversions(fmt) if k):
            arg = fmt_args[i]
            field = re.search(r"__entry->(\w+)|__get_str\((\w+)\)", arg)
            field = next(g for g in field.groups() if g) if field else None
            if field not in names:
                raise ValueError("key {}= prints {}, not a field".format(name, arg))
            key = Key(name, field)
            macro = re.match(r"(show_\w+)\(", arg)
            if macro and macro.group(1) in self.tables:
                key.symbols = self.tables[macro.group(1)]
            elif macro and macro.group(1) == "show_walk_mode":
                key.flag, key.choice = self.walk_mode(arg)
            keys.append(key)
        return keys

    def walk_mode(self, arg):
        """show_walk_mode()'s flag and its names when set and when not."""
        m = re.search(r'#define\s+show_walk_mode\(\w+\)\s+\(\(\w+\)\s*&\s*(\w+)\s*\?\s*'
                      r'"(\w+)"\s*:\s*"(\w+)"\)', self.text)
        if m is None or m.group(1) not in self.flags:
            raise ValueError("{}: show_walk_mode() tests no flag of {}".format(arg, FLAGS_HEADER))
        return self.flags[m.group(1)], (m.group(2), m.group(3))

    def symbol(self, constant):
        return self.symbols.get(constant)


def read(tree):
    """The vocabulary of the tree's header."""
    with open(os.path.join(tree, HEADER)) as f:
        text = f.read()
    with open(os.path.join(tree, FLAGS_HEADER)) as f:
        flags = f.read()
    return Vocabulary(text, flags)


def c_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def c_header(vocabulary, source):
    """A C header of the vocabulary, for the fuzzer."""
    out = ["/* SPDX-License-Identifier: GPL-2.0 */",
           "/* Made by scripts/symwalk/events.py from {}: do not edit. */".format(source),
           "#ifndef SYMWALK_NAMEI_EVENTS_H", "#define SYMWALK_NAMEI_EVENTS_H", "",
           "#include <stdbool.h>", "#include <stddef.h>", "",
           "#define NAMEI_EVENT_SYSTEM {}".format(c_string(SYSTEM)),
           "/* Names, link bodies and remnants are cut to this many bytes. */",
           "#define NAMEI_EVENT_NAME_MAX {}".format(vocabulary.name_max), "",
           "struct namei_event_symbol {", "\tint value;", "\tconst char *name;", "};", "",
           "/* A key of an event's line and the field it prints. */",
           "struct namei_event_key {",
           "\tconst char *name;",
           "\tconst char *field;",
           "\tbool string;\t\t/* a __data_loc string */",
           "\tconst struct namei_event_symbol *symbols;\t/* __print_symbolic()'s */",
           "\tunsigned int symbol_count;",
           "\tunsigned int flag;\t/* show_walk_mode()'s: set, choice[0] */",
           "\tconst char *choice[2];",
           "};", "",
           "struct namei_event_type {",
           "\tconst char *name;\t/* without the system's prefix: link_push */",
           "\tconst struct namei_event_key *keys;",
           "\tunsigned int key_count;",
           "};", ""]
    for macro, symbols in vocabulary.tables.items():
        out.append("static const struct namei_event_symbol namei_{}[] = {{".format(macro))
        out += ["\t{{ {}, {} }},\t/* {} */".format(s.value, c_string(s.printed), s.constant)
                for s in symbols]
        out += ["};", ""]
    table_of = {id(symbols): macro for macro, symbols in vocabulary.tables.items()}
    for event in vocabulary.events.values():
        strings = {f for f, _, string in event.fields if string}
        out.append("static const struct namei_event_key namei_keys_{}[] = {{".format(event.short))
        for key in event.keys:
            parts = [".name = " + c_string(key.name), ".field = " + c_string(key.field)]
            if key.field in strings:
                parts.append(".string = true")
            if key.symbols:
                parts += [".symbols = namei_" + table_of[id(key.symbols)],
                          ".symbol_count = {}".format(len(key.symbols))]
            if key.flag is not None:
                parts += [".flag = {:#x}".format(key.flag),
                          ".choice = {{ {}, {} }}".format(*map(c_string, key.choice))]
            out.append("\t{ " + ", ".join(parts) + " },")
        out += ["};", ""]
    out.append("static const struct namei_event_type namei_event_types[] = {")
    out += ["\t{{ {0}, namei_keys_{1}, {2} }},".format(c_string(e.short), e.short, len(e.keys))
            for e in vocabulary.events.values()]
    out += ["};", "", "#endif", ""]
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tree", help="the patched kernel tree")
    parser.add_argument("--c-header", metavar="OUT", help="write the C header here")
    args = parser.parse_args()
    try:
        vocabulary = read(args.tree)
    except (OSError, ValueError) as e:
        sys.exit("events: {}".format(e))
    if not args.c_header:
        for event in vocabulary.events.values():
            print(event.name, " ".join("{}={}".format(k.name, k.field) for k in event.keys))
        return
    with open(args.c_header + ".tmp", "w") as f:
        f.write(c_header(vocabulary, HEADER))
    os.replace(args.c_header + ".tmp", args.c_header)


if __name__ == "__main__":
    main()
