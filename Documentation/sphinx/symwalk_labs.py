# SPDX-License-Identifier: GPL-2.0
"""symwalk-lab, symwalk-predict and symwalk-answers: a lab's page, and its
questions, asked before its run and answered after it.

.. symwalk-lab:: NAME

renders labs/NAME/ in the order a student works, its sections:

- the title and intro of its narrative (lab.rst), what the lab is about,
  and a list of the page's sections;
- Predict first: lab.rst's symwalk-predict;
- Run it: the commands, then lab.rst's "The fixture" with the lab's
  setup.sh and trigger, and lab.rst's "In gdb" as "The steps in gdb";
- What you will see: the outcome of make check's run, marked as such,
  since it answers the predictions: the walks of its trigger (a picture of
  the symlink stack, a stepper through its states, symwalk_stepper, and
  the events of each lookup that pushed a link; the trace lines of the run
  when none did), the gdb script and what gdb printed, the guest's console,
  labs/NAME/expect that judged them, and the lines of the walk it ran (make
  coverage's, symwalk_coverage). It stays unfolded: the pictures are the
  lab for a reader without a guest, and a stepper is stepped in view;
- The explanation: lab.rst's "What you will see", whose symwalk-answers
  folds it with the answers to the predictions;
- Questions: lab.rst's, their answers folded.

lab.rst has those four sections, under those titles; "The fixture" and
"In gdb", a level down on the page, have no subsections. The run's results
come from symwalk_run.

.. symwalk-predict:: NAME

renders the questions of labs/NAME/questions (scripts/symwalk/grade.py reads them,
as make grade does) with where to answer them and how to grade the answers.

.. symwalk-answers:: [NAME]

   Body text.

renders, folded (an HTML <details> closed by default), the reference answer
and its explanation for each question of NAME, if given, then the body.

.. symwalk-labs::

renders the labs in order as a numbered table: each lab's number, its page
and its one-line summary (the title of its lab.rst).

.. symwalk-exercises::

renders every exercise (exercises/NAME/README.rst, its headings a level
down), each followed by the commands that start and grade it and its
grader (grade.sh); the reference solutions stay out of the page.
"""
import os
import re
import sys

from docutils import nodes
from docutils.parsers.rst import Directive
from docutils.statemachine import ViewList

import symwalk_coverage
import symwalk_run
import symwalk_walks as walks
from symwalk_stepper import stepper_lines
from symwalk import docs_data, exercises, grade, labs
from symwalk.layout import EXERCISES, LABS
from symwalk_rst import code, heading, parse

KIND_HINTS = {"number": "a number", "errno": "an errno, or 0 for success"}


def lab_questions(directive, name):
    try:
        questions = grade.read_questions(name)
    except grade.QuestionsError as e:
        raise directive.error(str(e))
    if not questions:
        raise directive.error("labs/{}/questions is missing or empty".format(name))
    return questions


def parsed(directive, lines):
    """The nodes of reStructuredText lines, parsed in the directive's place."""
    view = ViewList()
    source = directive.state_machine.get_source_and_line(directive.lineno)[0]
    for line in lines:
        view.append(line, source, directive.lineno)
    box = nodes.container()
    directive.state.nested_parse(view, directive.content_offset, box)
    return box.children


class Predict(Directive):
    required_arguments = 1

    def run(self):
        name = self.arguments[0]
        questions = lab_questions(self, name)
        lines = ["Before you run the lab, answer these. ``make lab LAB={0}`` writes them "
                 "into ``answers/{0}.txt`` for you to fill in; ``make grade LAB={0}`` runs "
                 "the lab and grades each answer against what the run showed, with the "
                 "explanation of each wrong one.".format(name), ""]
        for n, q in enumerate(questions, 1):
            kind = "one of " + ", ".join("``{}``".format(c) for c in q.choices) \
                if q.kind == "choice" else KIND_HINTS[q.kind]
            lines += ["{}. {} (``{}``: {})".format(n, q.text, q.ident, kind), ""]
        # The lab's page gives it the heading "Predict first".
        box = nodes.container(classes=["symwalk-predict"])
        box += parsed(self, lines)
        return [box]


class Answers(Directive):
    optional_arguments = 1
    has_content = True

    def run(self):
        lines = answers_lines(lab_questions(self, self.arguments[0])) if self.arguments else []
        summary = "The answers to Predict first, and why (open it after make grade)" \
            if self.arguments else "The answers to these questions"
        box = answers_box(self, summary, lines)
        self.state.nested_parse(self.content, self.content_offset, box[1])
        return box


def answers_lines(questions):
    lines = []
    for q in questions:
        lines += ["- ``{}``: **{}**. {}".format(q.ident, q.answer, q.why), ""]
    return lines


def answers_box(directive, summary, lines):
    """The nodes of a fold of answers: lines, under summary."""
    box = nodes.container(classes=["symwalk-answers"])
    box += parsed(directive, lines)
    return [nodes.raw("", '<details class="symwalk-answers"><summary>{}</summary>'.format(
                summary), format="html"),
            box,
            nodes.raw("", "</details>", format="html")]


class ExerciseAnswers(Directive):
    """The answers to an exercise's graded predictions, and why, folded
    as a lab's are: make grade EXERCISE=name grades them once the
    exercise's checks pass."""
    required_arguments = 1

    def run(self):
        name = self.arguments[0]
        try:
            questions = grade.read_questions(name, labs=EXERCISES)
        except grade.QuestionsError as e:
            raise self.error(str(e))
        return answers_box(self, "The answers to the graded predictions, and why (open it "
                           "after make grade EXERCISE={})".format(name), answers_lines(questions))


# A README's adornments, one level down: its title becomes a section of the
# exercises' page.
DEMOTED = {"=": "-", "-": "~", "~": "^"}


class LabsTable(Directive):
    def run(self):
        env = self.state.document.settings.env
        lines = [".. list-table::", "   :header-rows: 1", "   :class: labs-table", "",
                 "   * - #", "     - lab", "     - what it shows"]
        for name in labs.lab_names():
            env.note_dependency(os.path.join(LABS, name, "lab.rst"))
            number, _, topic = name.partition("-")
            lines += ["   * - " + number, "     - :doc:`{} <{}>`".format(topic, name),
                      "     - " + labs.lab_title(name)]
        return parse(self, lines + [""], "labs")


class Exercises(Directive):
    def run(self):
        lines = []
        env = self.state.document.settings.env
        for name in exercises.names():
            folder = os.path.join(EXERCISES, name)
            readme = os.path.join(folder, "README.rst")
            env.note_dependency(readme)
            with open(readme) as f:
                text = f.read().splitlines()
            for n, line in enumerate(text):
                if n and line and set(line) <= set(DEMOTED) and len(line) >= len(text[n - 1]):
                    line = DEMOTED[line[0]] * len(line)
                lines.append(line)
            graded = os.path.join(folder, "questions")
            if os.path.exists(graded):
                env.note_dependency(graded)
                lines += ["", ".. symwalk-exercise-answers:: " + name, ""]
            grader = os.path.join(folder, "grade.sh")
            env.note_dependency(grader)
            with open(grader) as f:
                code = f.read().splitlines()
            # Folded: its checks give the graded predictions' answers away.
            lines += ["", ".. raw:: html", "",
                      "   <details class=\"symwalk-grader\"><summary>The grader, "
                      "exercises/{}/grade.sh, run in the guest by make grade EXERCISE={} "
                      "(its checks give the answers away: open it after you "
                      "predict)</summary>".format(name, name), "",
                      ".. code-block:: sh", ""] + ["   " + c if c else "" for c in code] + [
                      "", ".. raw:: html", "", "   </details>", ""]
        return parse(self, lines, "exercises")


def adornments(lines):
    """The section underline characters of reST lines, in order of use."""
    chars = []
    for prev, line in zip(lines, lines[1:]):
        s = line.rstrip()
        if prev.strip() and len(s) >= 3 and len(set(s)) == 1 and s[0] in "=-~^*#+\"'`:.":
            if len(s) >= len(prev.rstrip()) and s[0] not in chars:
                chars.append(s[0])
    return chars


GDB_BOOT_NOISE = re.compile(
    r"^(0x[0-9a-f]+ in \?\? \(\)|Hardware assisted breakpoint \d+ at |Breakpoint \d+ at "
    r"0x[0-9a-f]+: file \S+/(init/main|kernel/sys)\.c|Breakpoint \d+, (start_kernel|"
    r"__x64_sys_sethostname) |\d+\t|\s*$)")


def gdb_log_tail(log):
    """The lab's gdb output, without the lines of the boot to the lab's
    start (start_kernel, then init's sethostname())."""
    lines = log.rstrip("\n").split("\n")
    while lines and GDB_BOOT_NOISE.match(lines[0]):
        lines.pop(0)
    return symwalk_run.clean_paths("\n".join(lines))


# The sections of a lab.rst, by title, and the title each has on the page.
NARRATIVE = {"The fixture": "The fixture", "In gdb": "The steps in gdb",
             "What you will see": "The explanation", "Questions": "Questions"}
PREDICT = re.compile(r"^\.\. symwalk-predict::")
TRACE_LINE = re.compile(r"^namei_\w+: ")


def split_sections(lines, char):
    """(the lines before the first section underlined with char, {title:
    the lines of its section}) of reST lines."""
    head, sections, body = [], {}, None
    n = 0
    while n < len(lines):
        title, under = lines[n], lines[n + 1].rstrip() if n + 1 < len(lines) else ""
        if title.strip() and not title[0].isspace() and under and set(under) == {char} \
                and len(under) >= len(title.rstrip()):
            body = sections[title.strip()] = []
            n += 2
            continue
        (head if body is None else body).append(lines[n])
        n += 1
    return head, sections


class Lab(Directive):
    required_arguments = 1

    def file(self, name):
        """A file of the lab, which the page depends on, and its text."""
        path = os.path.join(LABS, self.name, name)
        self.env.note_dependency(path)
        with open(path, errors="replace") as f:
            return f.read()

    def narrative(self):
        path = os.path.join(LABS, self.name, "lab.rst")
        if os.path.exists(path):
            return self.file("lab.rst").splitlines() + [""]
        # Said loudly, and tests/docs/pages_test.sh fails on it, but the rest
        # of the site still builds.
        print("docs: labs/{}/lab.rst is missing: the lab's page has no "
              "narrative".format(self.name), file=sys.stderr)
        return heading("Lab " + self.name, "=") + [
            ".. admonition:: No narrative yet", "   :class: missing-narrative", "",
            "   ``labs/{}/lab.rst`` is missing: this page shows only what the lab's "
            "files and its run give.".format(self.name), ""]

    def narrative_parts(self, lines, h2):
        """(the title and intro, the predictions, {title: section}) of the
        narrative, each section under its title on the page."""
        head, found = split_sections(lines, h2)
        predict = next((n for n, line in enumerate(head) if PREDICT.match(line)), len(head))
        if os.path.exists(os.path.join(LABS, self.name, "lab.rst")):
            missing = [t for t in NARRATIVE if t not in found] + \
                ([".. symwalk-predict::"] if predict == len(head) else [])
            if missing:
                raise self.error("labs/{}/lab.rst lacks {}: a lab's page is made of its "
                                 "sections".format(self.name, ", ".join(missing)))
        return head[:predict], head[predict:], {
            NARRATIVE[t]: body for t, body in found.items() if t in NARRATIVE}

    def traced(self, h3):
        lines = heading("The walk, traced", h3)
        record = symwalk_run.records(self.env).get("lab:" + self.name)
        lookups = record.lookups_named(self.file("trigger")) if record else []
        if not lookups:
            trace = [line for line in self.console.splitlines() if TRACE_LINE.match(line)]
            return lines + ["No lookup of the lab's trigger pushed a link on the symlink "
                            "stack: there is no picture of it. The namei events the "
                            "trigger printed in the run (the console below has them "
                            "with its output):", ""] + code("\n".join(trace))
        lines += ["The lab's trigger, run in the guest with the namei events enabled "
                  "(see :doc:`/tracepoints`). Each box is the symlink stack after one "
                  "event that changes it (see :doc:`/stack`), top frame first; green is "
                  "the frame just pushed, or whose body the walk enters, red the one just "
                  "popped, with the function that popped it.", ""]
        for events in lookups:
            path = events[0]["name"]
            states = walks.elide(walks.key_states(walks.stack_states(events)))
            dot = walks.strip(states, "the symlink stack along the lookup of " + path)
            lines += [".. graphviz::",
                      "   :alt: the symlink stack along the lookup of " + path, ""]
            lines += ["   " + line for line in dot.splitlines()] + [""]
            lines += stepper_lines(states, "the lookup of " + path,
                                   self.env.config.kerneldoc_srctree)
            lines += ["The events of the lookup of ``{}``:".format(path), ""]
            lines += code(walks.lookup_text(events))
        return lines

    def run_it(self, sections, h2, h3):
        """Run it: the commands, the fixture and the trigger, the gdb steps."""
        name = self.name
        lines = heading("Run it", h2)
        lines += ["``make lab LAB={0}`` boots the guest paused, attaches gdb and runs "
                  "the steps below, each command shown before its output, while the "
                  "guest builds the fixture and runs the trigger (``make lab LAB={0} "
                  "BATCH=1`` runs them without a terminal); ``make grade LAB={0}`` "
                  "runs the lab in batch and grades your answers.".format(name), ""]
        lines += heading("The fixture", h3) + sections.get("The fixture", [])
        lines += ["``labs/{0}/setup.sh`` builds the fixture in ``/lab/{0}`` of the "
                  "guest:".format(name), ""] + code(self.file("setup.sh"), "sh")
        lines += ["``labs/{}/trigger`` is the lookup gdb waits for:".format(name), ""]
        lines += code(self.file("trigger"), "sh")
        return lines + heading("The steps in gdb", h3) + sections.get("The steps in gdb", [])

    def outcome(self, h2, h3):
        """What you will see: the run make check judged, which answers the
        predictions."""
        name = self.name
        lines = heading("What you will see", h2)
        lines += [".. admonition:: Run it first", "   :class: symwalk-outcome", "",
                  "   This section is what the lab's run showed, and it answers the "
                  "questions of Predict first: answer them, run the lab and grade your "
                  "answers (``make grade LAB={}``) before you read on. It is the run "
                  "whose expectations ``make check`` judged: all the labs in one guest "
                  "and one gdb session, this lab's part of it.".format(name), ""]
        lines += self.traced(h3)
        lines += heading("What gdb printed", h3)
        lines += ["``labs/{}/lab.gdb``, the steps ``make lab`` runs in gdb:".format(name),
                  ""] + code(self.file("lab.gdb"))
        log = symwalk_run.read(self.env, docs_data.lab_log(name))
        lines += ["What gdb printed when ``make check`` ran them (its values numbered "
                  "from ``$1``):", ""] + code(gdb_log_tail(log))
        lines += heading("What the console printed", h3)
        lines += ["The guest's console meanwhile: the trigger, its output and the namei "
                  "events it printed:", ""] + code(symwalk_run.clean_paths(self.console))
        lines += heading("What make check checked", h3)
        lines += ["``make check`` checks gdb's output and the console against "
                  "``labs/{}/expect``:".format(name), ""] + code(self.file("expect"))
        return lines + symwalk_coverage.lab_lines(self.env, name, h3)

    def run(self):
        self.env = self.state.document.settings.env
        self.name = self.arguments[0]
        self.console = symwalk_run.read(self.env, docs_data.lab_console(self.name))
        lines = self.narrative()
        chars = adornments(lines)
        levels = (chars + [c for c in "=-~^" if c not in chars])[:3]
        h2, h3 = levels[1], levels[2]
        intro, predict, sections = self.narrative_parts(lines, h2)
        lines = intro + [".. contents:: On this page", "   :local:", "   :depth: 2",
                         "   :backlinks: none", ""]
        if predict:
            lines += heading("Predict first", h2) + predict
        lines += self.run_it(sections, h2, h3)
        lines += self.outcome(h2, h3)
        for title in ("The explanation", "Questions"):
            if title in sections:
                lines += heading(title, h2) + sections[title]
        return parse(self, lines, "labs/{}/lab.rst".format(self.name))


def setup(app):
    app.setup_extension("symwalk_run")
    app.add_directive("symwalk-lab", Lab)
    app.add_directive("symwalk-predict", Predict)
    app.add_directive("symwalk-answers", Answers)
    app.add_directive("symwalk-labs", LabsTable)
    app.add_directive("symwalk-exercises", Exercises)
    app.add_directive("symwalk-exercise-answers", ExerciseAnswers)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
