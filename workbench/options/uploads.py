"""The finish-upload form (``POST .../resources/spaces/:id/finish-upload``): success and message.

>>> parse_finish_upload_form([("success", "true"), ("message", "ok")])
(True, 'ok')
"""

from __future__ import annotations

from typing import Any

from .limits import FINISH_MESSAGE_CHARS, FINISH_UPLOAD_FIELDS
from .problems import InvalidOptions, Problem, check_text


def _check_finish_message(problems: list[Problem], message: Any) -> None:
    lo, hi = FINISH_MESSAGE_CHARS
    if not isinstance(message, str) or not lo <= len(message) <= hi:
        problems.append(Problem("message", "out_of_range", f"must be a string of {lo} to {hi} characters"))
    else:
        check_text(problems, "message", message)


def check_finish_upload(success: Any, message: Any) -> None:
    """Check a finish as Python values (the client, before it sends): ``success`` a bool.

    >>> check_finish_upload(True, "done")
    >>> try:
    ...     check_finish_upload("yes", "")
    ... except InvalidOptions as e:
    ...     print([(p.field, p.code) for p in e.problems])
    [('success', 'wrong_type'), ('message', 'out_of_range')]
    """
    problems: list[Problem] = []
    if not isinstance(success, bool):
        problems.append(Problem("success", "wrong_type", f"must be True or False; got {success!r}"))
    _check_finish_message(problems, message)
    if problems:
        raise InvalidOptions(problems)


def finish_upload_form(success: bool, message: str) -> dict[str, str]:
    """The form fields that send a finish (the inverse of :func:`parse_finish_upload_form`).

    >>> finish_upload_form(False, "changed my mind")
    {'success': 'false', 'message': 'changed my mind'}
    """
    return {"success": "true" if success else "false", "message": message}


def parse_finish_upload_form(items: list[tuple[str, Any]]) -> tuple[bool, str]:
    """Check a finish's form fields as received (name, value pairs, strings); return (success, message).

    >>> parse_finish_upload_form([("success", "true"), ("message", "ok")])
    (True, 'ok')
    >>> try:
    ...     parse_finish_upload_form([("success", "True"), ("message", "ok"), ("x", "1")])
    ... except InvalidOptions as e:
    ...     print([(p.field, p.code) for p in e.problems])
    [('x', 'unknown_field'), ('success', 'not_allowed')]
    """
    problems: list[Problem] = []
    names = [k for k, _ in items]
    for k in sorted(set(names)):
        if k not in FINISH_UPLOAD_FIELDS:
            problems.append(Problem(k, "unknown_field", "is not a field; send only success and message"))
        elif names.count(k) > 1:
            problems.append(Problem(k, "repeated_field", "is given more than once"))
    form = dict(items)
    success, message = form.get("success"), form.get("message")
    if success is None:
        problems.append(Problem("success", "required", "is required: true or false"))
    elif not isinstance(success, str) or success not in ("true", "false"):
        problems.append(Problem("success", "not_allowed", f"must be exactly true or false; got {success!r}"))
    if message is None:
        lo, hi = FINISH_MESSAGE_CHARS
        problems.append(Problem("message", "required", f"is required: {lo} to {hi} characters"))
    else:
        _check_finish_message(problems, message)
    if problems or message is None:   # a missing message is among the problems
        raise InvalidOptions(problems)
    return success == "true", message
