"""The exercises: which there are (a folder of exercises/ with a grade.sh),
what each asks, and the exercise a name or a unique prefix stands for."""
import os

from symwalk.layout import EXERCISES


class ExerciseError(Exception):
    pass


def names():
    return sorted(d for d in os.listdir(EXERCISES)
                  if os.path.isfile(os.path.join(EXERCISES, d, "grade.sh")))


def resolve(name):
    """The exercise name names, or a unique prefix of it."""
    if name in names():
        return name
    found = [n for n in names() if n.startswith(name)]
    if len(found) == 1:
        return found[0]
    if found:
        raise ExerciseError("'{}' could be any of these exercises; say which: {}".format(
            name, ", ".join(found)))
    raise ExerciseError("there is no exercise named '{}'; the exercises: {}".format(
        name, ", ".join(names())))


def title(name):
    """The first line of the exercise's README: what it asks."""
    with open(os.path.join(EXERCISES, name, "README.rst")) as f:
        return f.readline().strip()
