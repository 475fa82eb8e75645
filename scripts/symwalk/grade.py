"""Grade a student's predictions for a lab against what the lab's run showed.

Each lab's questions file (labs/NAME/questions) asks what the run will show
before the student sees it. A question:

    ? ID KIND
    The question, one or more lines of text.
    from: PATTERN
    take: first | last | max | min | count
    answer: the reference answer
    why: the explanation given with a wrong answer (one or more lines)

KIND is "number", "errno" (a name such as ELOOP or a number, either sign; 0
for success) or "choice A|B|...". PATTERN is a regular expression over the
gdb output, or over the guest console with a leading "console: " (as in the
lab's expect file); its first group is what the run showed. "take" says
which of the matching lines counts (first by default); "count" counts them
and needs no group. The student's answers file has a line "ID: answer" per
question; '#' starts a comment.
"""
import errno
import os
import re

from symwalk.expect import CONSOLE
from symwalk.labs import LabError
from symwalk.layout import LABS, TOP

ANSWERS = os.path.join(TOP, "answers")
KINDS = ("number", "errno", "choice")
TAKES = ("first", "last", "max", "min", "count")
SUCCESS_WORDS = ("0", "ok", "success", "none")


class QuestionsError(Exception):
    pass


class Question:
    def __init__(self, ident, kind, choices, where):
        self.ident, self.kind, self.choices, self.where = ident, kind, choices, where
        self.text = []
        self.why = []
        self.pattern = self.answer = None
        self.take = "first"

    def normal(self, value):
        """The answer as the grader compares it, or None if it is not one
        of this question's kind."""
        value = value.strip()
        if self.kind == "number":
            return int(value) if re.fullmatch(r"[+-]?\d+", value) else None
        if self.kind == "errno":
            bare = value.lstrip("+-").upper()
            if bare.lower() in SUCCESS_WORDS:
                return 0
            if bare.isdigit():
                return int(bare)
            return getattr(errno, bare, None) if bare.startswith("E") else None
        value = value.lower()
        return value if value in self.choices else None

    def shown(self, value):
        """A normal() value as a student reads it."""
        if self.kind == "errno":
            return "0 (success)" if value == 0 else "-{} ({})".format(
                errno.errorcode.get(value, "?"), value)
        return str(value)

    def observed(self, gdb_output, console_output):
        """What the run showed, as normal() has it, or None if the run has
        no line the pattern matches."""
        on_console = self.pattern.startswith(CONSOLE)
        regex = re.compile(self.pattern[len(CONSOLE):] if on_console else self.pattern)
        text = console_output if on_console else gdb_output
        found = [m for m in map(regex.search, text.splitlines()) if m]
        if self.take == "count":
            return len(found)
        if not found:
            return None
        if self.take in ("first", "last"):
            return self.normal(found[0 if self.take == "first" else -1].group(1))
        values = [self.normal(m.group(1)) for m in found]
        if None in values:
            return None
        return max(values) if self.take == "max" else min(values)


def read_questions(name, labs=LABS):
    """The lab's questions, in order; [] if it has none."""
    path = os.path.join(labs, name, "questions")
    if not os.path.exists(path):
        return []
    questions, field = [], None
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            where = "{}:{}".format(os.path.relpath(path, TOP), number)
            if line.startswith("#") or (not line.strip() and field != "text"):
                continue
            m = re.match(r"^\? (\S+) (number|errno|choice)(?: (\S+))?$", line)
            if m:
                choices = m.group(3).lower().split("|") if m.group(3) else []
                if (m.group(2) == "choice") != bool(choices):
                    raise QuestionsError("{}: 'choice' and only it takes A|B|...".format(where))
                questions.append(Question(m.group(1), m.group(2), choices, where))
                field = "text"
                continue
            if not questions:
                raise QuestionsError("{}: expected '? ID KIND' first".format(where))
            q = questions[-1]
            m = re.match(r"^(from|take|answer|why): ?(.*)$", line)
            if m:
                field, value = m.groups()
                if field == "from":
                    q.pattern = value
                elif field == "take":
                    if value not in TAKES:
                        raise QuestionsError("{}: take is one of {}".format(where, ", ".join(TAKES)))
                    q.take = value
                elif field == "answer":
                    q.answer = value
                else:
                    q.why.append(value)
            elif field in ("text", "why"):
                (q.text if field == "text" else q.why).append(line.strip())
            else:
                raise QuestionsError("{}: a line of no field: {}".format(where, line))
    for q in questions:
        for needed in ("pattern", "answer"):
            if getattr(q, needed) is None:
                raise QuestionsError("{}: question {} has no {}".format(
                    q.where, q.ident, "from:" if needed == "pattern" else "answer:"))
        if q.normal(q.answer) is None:
            raise QuestionsError("{}: the answer of {} is no {}".format(q.where, q.ident, q.kind))
        if q.take != "count":
            try:
                body = q.pattern[len(CONSOLE):] if q.pattern.startswith(CONSOLE) else q.pattern
                groups = re.compile(body).groups
            except re.error as e:
                raise QuestionsError("{}: pattern of {}: {}".format(q.where, q.ident, e))
            if groups < 1:
                raise QuestionsError("{}: the pattern of {} has no group".format(q.where, q.ident))
        q.text = " ".join(q.text).strip()
        q.why = " ".join(q.why).strip()
    return questions


def read_answers(path):
    """{ID: answer} from a student's file."""
    answers = {}
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if ":" in line:
                ident, value = line.split(":", 1)
                if value.strip():
                    answers[ident.strip()] = value.strip()
    return answers


def grade(questions, answers, gdb_output, console_output):
    """[(question, right, one line for the student)], a line per question."""
    graded = []
    for q in questions:
        seen = q.observed(gdb_output, console_output)
        given = answers.get(q.ident)
        if seen is None:
            graded.append((q, False, "{}: the run did not show it (no line matches {!r}): "
                           "run the lab again".format(q.ident, q.pattern)))
        elif given is None or q.normal(given) is None:
            graded.append((q, False, unusable(q, given)))
        elif q.normal(given) != seen:
            graded.append((q, False, "{}: you said {}; the run showed {}. {}".format(
                q.ident, given, q.shown(seen), q.why)))
        else:
            graded.append((q, True, "{}: {}".format(q.ident, q.shown(seen))))
    return graded


def kind_words(q):
    return "one of " + ", ".join(q.choices) if q.kind == "choice" else \
        "an errno (ELOOP, -40, 0 for success)" if q.kind == "errno" else "a number"


def unusable(q, given):
    """Why an answer cannot be graded, saying nothing of the run."""
    if given is None:
        return "{}: no answer yet ({})".format(q.ident, kind_words(q))
    return "{}: '{}' is not {}".format(q.ident, given, kind_words(q))


def unanswered(questions, answers):
    """A line per question whose answer is missing or not of its kind: the
    grader refuses these before it runs the lab, so nothing is given away."""
    given = {q.ident: answers.get(q.ident) or None for q in questions}
    return [unusable(q, given[q.ident]) for q in questions
            if given[q.ident] is None or q.normal(given[q.ident]) is None]


def wrong_answers(questions):
    """{ID: answer} with every answer wrong but of the right kind: the
    grader must fail each of them."""
    wrong = {}
    for q in questions:
        right = q.normal(q.answer)
        if q.kind == "choice":
            wrong[q.ident] = next(c for c in q.choices if c != right)
        elif q.kind == "errno":
            wrong[q.ident] = "ENOENT" if right != errno.ENOENT else "0"
        else:
            wrong[q.ident] = str(right + 1)
    return wrong


def self_check(name, run_dir):
    """[(title, ok, detail)]: the lab's grader, on its last run in run_dir,
    passes the reference answers and fails each wrong answer by name."""
    title = "lab {}: grader".format(name)
    try:
        questions = read_questions(name)
        outputs = read_run(name, run_dir)
    except (QuestionsError, LabError) as e:
        return [(title, False, str(e))]
    if not questions:
        return [(title, False, "labs/{}/questions is missing".format(name))]
    graded = grade(questions, {q.ident: q.answer for q in questions}, *outputs)
    checks = [("{} passes the {} reference answers".format(title, len(questions)),
               all(right for _, right, _ in graded),
               "\n".join(line for _, right, line in graded if not right))]
    graded = grade(questions, wrong_answers(questions), *outputs)
    checks.append(("{} fails each of {} wrong answers, naming it".format(title, len(questions)),
                   all(not right and line.startswith(q.ident + ": you said ")
                       for q, right, line in graded),
                   "\n".join(line for _, _, line in graded)))
    return checks


def answers_path(name):
    return os.path.join(ANSWERS, name + ".txt")


def write_template(name, questions, what=None, command=None):
    """The student's answers file, made with the questions in comments if
    it does not exist yet. Return its path. what: what they predict ("lab
    NAME"); command: what grades them ("make grade LAB=NAME")."""
    path = answers_path(name)
    if os.path.exists(path):
        return path
    os.makedirs(ANSWERS, exist_ok=True)
    lines = ["# Your predictions for {}: write each answer after its ID,".format(
                 what or "lab " + name),
             "# before you look; '{}' grades them.".format(
                 command or "make grade LAB=" + name), ""]
    for q in questions:
        lines += ["# " + line for line in wrap(q.text)]
        lines += ["# ({})".format(kind_words(q)), "{}: ".format(q.ident), ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))
    return path


def wrap(text, width=72):
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = (line + " " + word).strip()
    return lines + [line] if line else lines


def read_run(name, run_dir):
    """The gdb output and the console of the lab's last batch run in
    run_dir."""
    stem = os.path.join(run_dir, "lab-" + name)
    texts = []
    for path in (stem + ".gdb.log", stem + ".console"):
        try:
            with open(path, errors="replace") as f:
                texts.append(f.read())
        except OSError:
            raise LabError("no run of lab {} to grade ({} is missing): "
                                   "make grade LAB={} runs it".format(name, path, name))
    return texts
