"""symwalk's host side: the guest and its runs, the labs and their judge, the namei events' vocabulary."""
