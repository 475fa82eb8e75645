# symwalk's exercises (exercises/NAME/): make exercise NAME=x starts one,
# make grade EXERCISE=x grades it, make exercises-check proves every grader
# fails on its starting state and passes on its reference solution
# (scripts/exercise.py; the worktree build/exercise/linux, built in
# build/exercise/kbuild); make exercises-soak runs each grader RUNS times on
# its reference solution beside LOAD CPU-bound processes (not in CI).

EXERCISE_PY := python3 scripts/exercise.py

.PHONY: exercise exercises exercises-check exercises-soak

exercises:
	@$(EXERCISE_PY) list

exercise: kernel initramfs
	@$(if $(NAME),,echo "make exercise needs NAME=name (make exercises lists them)" >&2; exit 2)
	@$(EXERCISE_PY) start $(NAME)

exercises-check: kernel initramfs
	@$(EXERCISE_PY) check $(NAME)

exercises-soak: kernel initramfs
	@$(EXERCISE_PY) soak --runs $(or $(RUNS),20) --load $(or $(LOAD),2) $(NAME)
