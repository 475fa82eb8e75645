#!/usr/bin/env python3
"""The labs' grader (scripts/symwalk/grade.py): questions read or refused with the
line at fault, answers normalised by kind, each way of taking the run's
value, wrong answers named, the student's file made once. KTAP."""
import os
import tempfile

from taplib import check, done
from symwalk import grade, narrative

GDB = """\
  3. push  [0] /lab/x/l2  (2 of 40 links, REF-walk)
end of the walk of "/lab/x/f": 3 links followed
"""
CONSOLE = """\
namei_link_push: level=0 depth=1 links=1 link="a" mode=rcu
namei_link_push: level=0 depth=2 links=2 link="b" mode=ref
namei_lookup_end: level=0 attempt=rcu name="/lab/x/f" links=2 error=-40
"""
QUESTIONS = """\
# a comment
? links number
How many links
in all?
from: ^end of the walk of .*: (\\d+) links followed
answer: 3
why: Three of them.

? depth number
How deep?
from: console: namei_link_push: .* depth=(\\d+)
take: max
answer: 2
why: Nested.

? pushes number
How many pushes?
from: console: namei_link_push:
take: count
answer: 2
why: Two.

? mode choice rcu|ref
Which mode for b?
from: console: link="b" mode=(\\w+)
answer: ref
why: atime.

? error errno
Which error?
from: console: namei_lookup_end: .* error=(-?\\d+)
answer: ELOOP
why: Budget.
"""


def questions_from(text):
    labs = tempfile.mkdtemp()
    os.makedirs(os.path.join(labs, "x"))
    with open(os.path.join(labs, "x", "questions"), "w") as f:
        f.write(text)
    return grade.read_questions("x", labs)


def refused(text, words):
    try:
        questions_from(text)
    except grade.QuestionsError as e:
        return words in str(e) and "questions:" in str(e), str(e)
    return False, "accepted"


qs = questions_from(QUESTIONS)
check("five questions read, text joined", [q.ident for q in qs] ==
      ["links", "depth", "pushes", "mode", "error"] and qs[0].text == "How many links in all?",
      [(q.ident, q.text) for q in qs])
reference = {q.ident: q.answer for q in qs}
graded = grade.grade(qs, reference, GDB, CONSOLE)
check("the reference answers are right (first, max, count, choice, errno)",
      all(right for _, right, _ in graded), [line for _, _, line in graded])
graded = grade.grade(qs, grade.wrong_answers(qs), GDB, CONSOLE)
check("each wrong answer is wrong, named, with what the run showed and why",
      all(not right and line.startswith(q.ident + ": you said ") and q.why in line
          for q, right, line in graded), [line for _, _, line in graded])
error = qs[4]
check("errno answers: ELOOP, -ELOOP, eloop, 40 and -40 are one answer",
      {error.normal(a) for a in ("ELOOP", "-ELOOP", "eloop", "40", "-40")} == {40})
check("errno answers: 0, ok and success mean success; EBOGUS is no errno",
      [error.normal(a) for a in ("0", "ok", "success", "EBOGUS")] == [0, 0, 0, None])
check("choice answers ignore case; another word is no answer",
      (qs[3].normal("REF"), qs[3].normal("walk")) == ("ref", None))
last = questions_from('? m choice ref\nQ\nfrom: console: mode=(\\w+)$\ntake: last\nanswer: ref\n')[0]
check("take last: only the line taken need be of the question's kind",
      last.observed(GDB, CONSOLE) == "ref", last.observed(GDB, CONSOLE))
graded = grade.grade(qs, {"links": "three", "depth": "2"}, GDB, CONSOLE)
lines = [line for _, _, line in graded]
check("an answer of the wrong kind, a missing one: wrong, each said",
      "is not a number" in lines[0] and graded[1][1] and "no answer" in lines[2], lines)
check("a missing or malformed answer gives nothing of the run away",
      not any(word in line for line in lines[:1] + lines[2:] for word in ("run showed", "Three",
                                                                            "Two.", "Budget")),
      lines)
not_graded = grade.unanswered(qs, {"links": "three", "depth": "2", "pushes": "",
                                "mode": "REF", "error": "-ELOOP"})
check("the answers refused before the run: the blank and the malformed ones, by ID",
      [line.split(":")[0] for line in not_graded] == ["links", "pushes"]
      and "is not a number" in not_graded[0] and "no answer yet" in not_graded[1], not_graded)
graded = grade.grade(qs, reference, "", "")
check("a run that does not show a value fails the question, saying so",
      all(not right and "did not show" in line for _, right, line in graded[:2]),
      [line for _, _, line in graded])
for text, words, name in [
        ("links: 3\n", "expected '? ID KIND'", "a field before any question"),
        ("? a number\nQ\nanswer: 1\n", "has no from:", "a question without from:"),
        ("? a number\nQ\nfrom: (\\d+)\n", "has no answer:", "a question without answer:"),
        ("? a number\nQ\nfrom: x\nanswer: 1\n", "has no group", "a pattern without a group"),
        ("? a number\nQ\nfrom: (\\d+)\nanswer: one\n", "is no number", "an answer of the wrong kind"),
        ("? a choice\nQ\nfrom: (\\w+)\nanswer: x\n", "only it takes", "a choice without choices"),
        ("? a number\nQ\nfrom: (\\d+)\ntake: all\nanswer: 1\n", "take is one of", "an unknown take"),
        ("? a number\nQ\nfrom: (\\d+\nanswer: 1\n", "pattern of a", "a pattern that does not compile")]:
    ok, detail = refused(text, words)
    check("refused, with its line: " + name, ok, detail)

home = tempfile.mkdtemp()
grade.ANSWERS = home
path = grade.write_template("x", qs)
with open(path) as f:
    template = f.read()
check("the answers file is made with each question in comments and no answer",
      grade.read_answers(path) == {} and "# How many links in all?" in template
      and "mode: " in template, template)
with open(path, "w") as f:
    f.write("links: 3  # my guess\n")
check("an existing answers file is never overwritten; comments after answers dropped",
      grade.write_template("x", qs) == path and grade.read_answers(path) == {"links": "3"})


RST = """\
Title
=====

``depth: 9`` before the section is not read.

What you will see
-----------------

.. symwalk-answers:: x

   The stop shows ``depth: 2`` and ``namei_link_push: ... link="b"
   mode=ref``; ``walk_component()`` is no output.

Questions
---------

``depth: 7`` after it is not read either.
"""
said = narrative.quotes(RST)
check("the narrative's output quotes: only in its section, wrapped lines joined",
      said == ["depth: 2", 'namei_link_push: ... link="b" mode=ref'], said)
check("a quote is in a line when its parts are, in order",
      narrative.in_line(said[1], CONSOLE.splitlines()[1])
      and not narrative.in_line('mode=ref ... link="b"', CONSOLE.splitlines()[1]))
check("a part of a quote is never the start or the end of a longer word",
      narrative.in_line("links=2 link=", CONSOLE.splitlines()[1])
      and not narrative.in_line("links=2", 'namei_link_push: links=24')
      and not narrative.in_line("ink=", CONSOLE.splitlines()[1]))

done()
