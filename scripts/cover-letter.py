#!/usr/bin/env python3
"""Print a cover letter's subject and text as a git branch description.

git format-patch --cover-from-description=subject turns the description back
into the cover letter: its first paragraph becomes the subject, the rest the
text above the shortlog.
"""
import email
import email.policy
import re
import sys

SHORTLOG_HEAD = re.compile(r"^\S.* \(\d+\):$")


def main():
    if len(sys.argv) != 3 or sys.argv[1] != "read":
        sys.exit("usage: cover-letter.py read COVER-LETTER")
    with open(sys.argv[2], "rb") as f:
        msg = email.message_from_binary_file(f, policy=email.policy.default)
    subject = re.sub(r"^\[[^]]*\]\s*", "", str(msg["subject"]))
    text = []
    for line in msg.get_content().splitlines():
        if SHORTLOG_HEAD.match(line):
            break
        text.append(line)
    print(subject.strip() + "\n\n" + "\n".join(text).strip())


if __name__ == "__main__":
    main()
