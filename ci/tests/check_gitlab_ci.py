#!/usr/bin/env python3
"""Checks that a GitLab CI file parses as YAML and has the structure hilperf's ci/gitlab-ci.yml promises.

Usage: check_gitlab_ci.py <gitlab-ci.yml>
Exit 0 when it does; 1 with one line per problem ("check_gitlab_ci: <file>: <problem>") or the
parser's message; 2 on a usage error.

The checks follow GitLab's own reading of the file: top-level keywords are not jobs, names with a
leading dot are templates, `extends` is resolved (hashes merged deeply, everything else replaced
by the child), a job without `stage` is in `test`. A HIL job is one whose script runs ci/run-hil;
the nightly one is the one that passes --nightly.
"""

import re
import sys

try:
    import yaml
except ImportError:
    print("check_gitlab_ci: python3-yaml is missing (ci/install-deps installs it)", file=sys.stderr)
    sys.exit(1)

# Top-level keywords that are not jobs (GitLab CI YAML reference, "Global keywords").
GLOBAL_KEYWORDS = {
    "default", "include", "stages", "variables", "workflow", "image", "services", "cache",
    "before_script", "after_script", "spec",
}
DEFAULT_STAGES = [".pre", "build", "test", "deploy", ".post"]
JUNIT = "build/ci/hil-junit.xml"
REPORTS = [
    "build/ci/hil-results.jsonl", "build/ci/hil-report.html", "build/ci/hil-report.md",
    "build/ci/hil-report.dokuwiki",
]
SCHEDULE_RULE = re.compile(r"""\$CI_PIPELINE_SOURCE\s*==\s*["']schedule["']""")


class Loader(yaml.SafeLoader):
    """safe_load plus GitLab's `!reference [job, key]` tag, kept as a marker list."""


Loader.add_constructor(
    "!reference", lambda loader, node: ["!reference", *loader.construct_sequence(node)])


def merge(base, child):
    """GitLab's `extends` merge: hashes deeply, any other value taken from the child."""
    if not (isinstance(base, dict) and isinstance(child, dict)):
        return child
    result = dict(base)
    for key, value in child.items():
        result[key] = merge(base[key], value) if key in base else value
    return result


def resolve(name, entries, seen=()):
    """The job `name` with its `extends` chain applied."""
    job = entries[name]
    if not isinstance(job, dict):
        return job
    parents = job.get("extends", [])
    parents = [parents] if isinstance(parents, str) else parents
    resolved = {}
    for parent in parents:
        if parent in seen or parent not in entries:
            raise ValueError(f"job '{name}' extends unknown or circular '{parent}'")
        resolved = merge(resolved, resolve(parent, entries, seen + (name,)))
    return merge(resolved, {k: v for k, v in job.items() if k != "extends"})


def script_lines(job):
    lines = []
    for key in ("before_script", "script"):
        value = job.get(key, [])
        lines += [value] if isinstance(value, str) else [str(v) for v in value]
    return lines


def runs_on_schedule(job):
    """True when a rule matching a scheduled pipeline adds the job (first matching rule decides)."""
    for rule in job.get("rules", []) or []:
        if isinstance(rule, dict) and SCHEDULE_RULE.search(str(rule.get("if", ""))):
            return rule.get("when", "on_success") != "never"
    return False


def check_hil_job(name, job, problems):
    tags = job.get("tags") or []
    if "hil-board" not in tags:
        problems.append(f"job '{name}': tags {tags} lack 'hil-board' (it would run on any runner)")
    artifacts = job.get("artifacts") or {}
    if artifacts.get("when") != "always":
        problems.append(f"job '{name}': artifacts.when is {artifacts.get('when')!r}, expected "
                        "'always' (a failed run would upload no report)")
    junit = (artifacts.get("reports") or {}).get("junit")
    junit = [junit] if isinstance(junit, str) else (junit or [])
    if JUNIT not in junit:
        problems.append(f"job '{name}': artifacts.reports.junit is {junit}, expected {JUNIT}")
    paths = artifacts.get("paths") or []
    for path in REPORTS:
        if path not in paths:
            problems.append(f"job '{name}': artifacts.paths lacks {path}")
    if "expire_in" not in artifacts:
        problems.append(f"job '{name}': artifacts.expire_in is not set")
    if job.get("retry"):
        problems.append(f"job '{name}': retry is set; a failed HIL run is a real failure, "
                        "it must not be retried")
    if not any('ci/run-hil --profile "$HILPERF_PROFILE"' in line for line in script_lines(job)):
        problems.append(f"job '{name}': the script does not run "
                        "ci/run-hil --profile \"$HILPERF_PROFILE\"")


def check(config):
    problems = []
    if not isinstance(config, dict):
        return ["the file is not a mapping of keywords and jobs"]
    stages = config.get("stages", DEFAULT_STAGES)
    if not isinstance(stages, list) or not stages:
        problems.append("`stages` is not a non-empty list")
        stages = []
    if "stages" not in config:
        problems.append("`stages` is not listed")

    variables = config.get("variables") or {}
    profile = variables.get("HILPERF_PROFILE")
    profile = profile.get("value") if isinstance(profile, dict) else profile
    if profile != "ci/boards/sim.toml":
        problems.append(f"variables.HILPERF_PROFILE is {profile!r}, expected 'ci/boards/sim.toml'")

    names = [k for k in config if k not in GLOBAL_KEYWORDS and not str(k).startswith(".")]
    jobs = {}
    for name in names:
        try:
            job = resolve(name, config)
        except ValueError as error:
            problems.append(str(error))
            continue
        if not isinstance(job, dict):
            problems.append(f"job '{name}' is not a mapping")
            continue
        jobs[name] = job
        stage = job.get("stage", "test")
        if stage not in stages and stage not in (".pre", ".post"):
            problems.append(f"job '{name}': stage '{stage}' is not in stages {stages}")
        if not job.get("script") and not job.get("trigger"):
            problems.append(f"job '{name}' has no script")

    if not any("ci/run-tests" in line for job in jobs.values() for line in script_lines(job)):
        problems.append("no job runs ci/run-tests (build and own tests)")

    hil = {n: j for n, j in jobs.items() if any("ci/run-hil" in l for l in script_lines(j))}
    nightly = {n: j for n, j in hil.items() if any("--nightly" in l for l in script_lines(j))}
    quick = {n: j for n, j in hil.items() if n not in nightly}
    if not quick:
        problems.append("no HIL job (a job whose script runs ci/run-hil without --nightly)")
    if not nightly:
        problems.append("no nightly job (a job whose script runs ci/run-hil --nightly)")
    for name, job in hil.items():
        check_hil_job(name, job, problems)
    for name, job in nightly.items():
        if not runs_on_schedule(job):
            problems.append(f"job '{name}' runs --nightly but has no rule "
                            "`if: '$CI_PIPELINE_SOURCE == \"schedule\"'`")
    for name, job in quick.items():
        if runs_on_schedule(job):
            problems.append(f"job '{name}' (quick durations) also runs in the scheduled pipeline")
    return problems


def main(argv):
    if len(argv) != 2:
        print("usage: check_gitlab_ci.py <gitlab-ci.yml>", file=sys.stderr)
        return 2
    path = argv[1]
    try:
        with open(path, encoding="utf-8") as stream:
            config = yaml.load(stream, Loader=Loader)
    except OSError as error:
        print(f"check_gitlab_ci: {path}: {error.strerror}", file=sys.stderr)
        return 1
    except yaml.YAMLError as error:
        print(f"check_gitlab_ci: {path}: does not parse as YAML:\n{error}", file=sys.stderr)
        return 1
    problems = check(config)
    for problem in problems:
        print(f"check_gitlab_ci: {path}: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"check_gitlab_ci: {path}: parses; stages {config['stages']}, HIL jobs on 'hil-board' "
          "with JUnit artifacts always, nightly on schedule")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
