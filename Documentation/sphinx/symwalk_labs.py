# SPDX-License-Identifier: GPL-2.0
"""symwalk-predict and symwalk-answers: a lab's questions, asked before its
run and answered after it.

.. symwalk-predict:: NAME

renders the questions of labs/NAME/questions (scripts/grade.py reads them,
as make grade does) with where to answer them and how to grade the answers.

.. symwalk-answers:: [NAME]

   Body text.

renders, folded (an HTML <details> closed by default), the reference answer
and its explanation for each question of NAME, if given, then the body.

.. symwalk-exercises::

renders every exercise (exercises/NAME/README.rst, its headings a level
down), each followed by the commands that start and grade it and its
grader (grade.sh); the reference solutions stay out of the page.
"""
import os
import sys

from docutils import nodes
from docutils.parsers.rst import Directive
from docutils.statemachine import ViewList
from sphinx.util.nodes import nested_parse_with_titles

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, "scripts"))
import exercise  # noqa: E402
import grade  # noqa: E402

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
        box = nodes.admonition(classes=["symwalk-predict"])
        box += nodes.title(text="Predict first")
        box += parsed(self, lines)
        return [box]


class Answers(Directive):
    optional_arguments = 1
    has_content = True

    def run(self):
        lines = []
        if self.arguments:
            for q in lab_questions(self, self.arguments[0]):
                lines += ["- ``{}``: **{}**. {}".format(q.ident, q.answer, q.why), ""]
        summary = "The answers (open after make grade)" if self.arguments else \
            "The answers"
        box = nodes.container(classes=["symwalk-answers"])
        box += parsed(self, lines)
        self.state.nested_parse(self.content, self.content_offset, box)
        return [nodes.raw("", '<details class="symwalk-answers"><summary>{}</summary>'.format(
                    summary), format="html"),
                box,
                nodes.raw("", "</details>", format="html")]


# A README's adornments, one level down: its title becomes a section of the
# exercises' page.
DEMOTED = {"=": "-", "-": "~", "~": "^"}


class Exercises(Directive):
    def run(self):
        lines = []
        env = self.state.document.settings.env
        for name in exercise.names():
            folder = os.path.join(exercise.EXERCISES, name)
            readme = os.path.join(folder, "README.rst")
            env.note_dependency(readme)
            with open(readme) as f:
                text = f.read().splitlines()
            for n, line in enumerate(text):
                if n and line and set(line) <= set(DEMOTED) and len(line) >= len(text[n - 1]):
                    line = DEMOTED[line[0]] * len(line)
                lines.append(line)
            grader = os.path.join(folder, "grade.sh")
            env.note_dependency(grader)
            with open(grader) as f:
                code = f.read().splitlines()
            lines += ["", "The grader, ``exercises/{}/grade.sh``, run in the guest "
                      "(``make grade EXERCISE={}``):".format(name, name), "",
                      ".. code-block:: sh", ""] + ["   " + c if c else "" for c in code] + [""]
        view = ViewList()
        for n, line in enumerate(lines):
            view.append(line, "exercises", n)
        section = nodes.section()
        nested_parse_with_titles(self.state, view, section)
        return section.children


def setup(app):
    app.add_directive("symwalk-predict", Predict)
    app.add_directive("symwalk-answers", Answers)
    app.add_directive("symwalk-exercises", Exercises)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
