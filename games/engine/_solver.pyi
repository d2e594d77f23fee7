"""Type stub of the C core of the solver (games/engine/_solver.c)."""

def begin(
    reserve: bytes,
    piles: tuple[bytes, bytes, bytes, bytes],
    talon: bytes,
    w: int,
    rl: int,
    found: bytes,
    fits: bytes,
    base: int,
    draw: int,
    autofill: int,
    empty_any: int,
    mode: int,
    safe_auto: int,
    max_bytes: int,
    order: int,
    shuffle: int,
    dead_sets: bool = False,
    /,
) -> object: ...  # an opaque handle (a capsule); the search is freed with it
def advance(
    search: object, max_nodes: int, max_seconds: float, /
) -> tuple[str, list[str], int, str, int]: ...
def refer(search: object, ref: object, /) -> None: ...
def end_dead_sets(search: object, /) -> None: ...
def import_dead(into: object, source: object, /) -> int: ...  # keys new to `into`
def release_tables() -> int: ...  # bytes of kept freed tables given back to the system
