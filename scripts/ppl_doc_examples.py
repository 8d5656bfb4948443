#!/usr/bin/env python3
"""Runs the examples of OpenSearch's PPL function reference through Sluice.

    scripts/ppl_doc_examples.py SLUICE OPENSEARCH_SQL_GIT_DIR [page ...] [-v] [--cmd] [--slt FILE]

For each docs/user/ppl/functions/<page>.md (with --cmd the command pages,
docs/user/ppl/cmd/<page>.md) of the OpenSearch SQL plugin
(read from its git dir, HEAD), every ```ppl block followed by a ```text
block holding a result table is one example. The doctest indices
(doctest/test_data, as doctest/test_docs.py names them) become JSON tables
of a scratch data dir, with the schema Sluice infers (no mappings, so a
date field is a string). An example passes when Sluice's rows equal the
documented ones: in order, or else as a multiset; cells compared after
dropping blanks and quotes, true/false/null in any case, numbers as
numbers (relative 1e-9), timestamps as the table format writes them, nested values and cells
holding newlines as the pages print them. Where Sluice's column names
are the documented header's, columns are taken in the header's order
(without a fields list OpenSearch orders an index's fields as a Java
HashMap of its mapping does, Sluice in the table's schema order); else
column names are not compared and columns go by position. Prints
passed/examples per page and the total; -v prints each failure.

--slt FILE writes the passing examples as `query ... ppl` records over
the tables of testdata/data/json/ppl_doc (the doctest files), with no
rows: `go test ./internal/slt -run TestPPL/<name> -update` fills them in.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TEST_DATA = {
    'accounts': 'accounts.json', 'people': 'people.json', 'account2': 'account2.json',
    'nyc_taxi': 'nyc_taxi.json', 'books': 'books.json', 'apache': 'apache.json',
    'wildcard': 'wildcard.json', 'nested': 'nested_objects.json', 'weblogs': 'weblogs.json',
    'json_test': 'json_test.json', 'state_country': 'state_country.json',
    'structured': 'structured.json', 'occupation': 'occupation.json', 'worker': 'worker.json',
    'work_information': 'work_information.json', 'events': 'events.json',
    'events_null': 'events_null.json', 'events_many_hosts': 'events_many_hosts.json',
    'otellogs': 'otellogs.json', 'time_data': 'time_test_data.json',
    'time_data2': 'time_test_data2.json', 'time_test': 'time_test.json',
    'mvcombine_data': 'mvcombine.json', 'timewrap_test': 'timewrap_test.json',
}


def git_show(gitdir, path):
    return subprocess.run(['git', '--git-dir', gitdir, 'show', 'HEAD:' + path],
                          check=True, capture_output=True, text=True).stdout


def examples(md):
    """Yields (query, rows) for each ppl block whose next text block is a table."""
    blocks, cur = [], None
    for line in md.splitlines():
        fence = line.strip()
        if cur is None and fence.startswith('```'):
            cur = (fence[3:].strip(), [])
        elif cur is not None and fence == '```':
            blocks.append((cur[0], '\n'.join(cur[1])))
            cur = None
        elif cur is not None:
            cur[1].append(line)
    for i, (lang, body) in enumerate(blocks):
        if lang != 'ppl' or i + 1 >= len(blocks):
            continue
        nlang, nbody = blocks[i + 1]
        if nlang != 'text' or 'fetched rows' not in nbody:
            continue
        lines = [l for l in nbody.splitlines() if l.startswith('|') and not l.startswith('|-')]
        if not lines:
            continue
        sep = next((l.rstrip() for l in nbody.splitlines() if l.startswith('|-')), '')
        cuts = [0] + [i for i, ch in enumerate(sep) if ch == '+'] + [len(sep) - 1]

        def cells(l):
            # By the columns' widths where the line fits them: a cell may hold a |.
            l = l.rstrip()
            if len(l) == len(sep) and all(l[i] == '|' for i in cuts):
                return [l[a + 1:b].strip() for a, b in zip(cuts, cuts[1:])]
            return [c.strip() for c in l[1:-1].split('|')]
        rows = [cells(l) for l in lines[1:]]
        yield ' '.join(l.strip() for l in body.strip().splitlines()), rows, cells(lines[0])


def render(v):
    if v is None:
        return 'null'
    if isinstance(v, bool):
        return 'true' if v else 'false'
    if isinstance(v, list):  # as the page prints it: no JSON escapes
        return '[' + ','.join(render(x) for x in v) + ']'
    if isinstance(v, dict):
        return '{' + ','.join(f'{k}:{render(x)}' for k, x in v.items()) + '}'
    if isinstance(v, str) and re.fullmatch(r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z', v):
        return v[:-1].replace('T', ' ')  # a TIMESTAMP as JSON output writes it
    return str(v)


def lines(row):
    """The table lines a row prints as: a cell holding newlines goes on
    over the next lines, the other cells blank there (nomv's output)."""
    parts = [c.split('\n') for c in row]
    n = max((len(p) for p in parts), default=1)
    return [[p[i] if i < len(p) else '' for p in parts] for i in range(n)]


def norm(s):
    s = re.sub(r'[\s"\']', '', s)
    return s.lower() if s.lower() in ('true', 'false', 'null') else s


def cell_eq(a, b):
    a, b = norm(a), norm(b)
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    return x == y or abs(x - y) <= 1e-9 * max(abs(x), abs(y))


def rows_eq(got, want):
    if len(got) != len(want):
        return False
    def same(g, w):
        return len(g) == len(w) and all(cell_eq(a, b) for a, b in zip(g, w))
    if all(same(g, w) for g, w in zip(got, want)):
        return 'ordered'

    left = list(got)
    for w in want:
        for j, g in enumerate(left):
            if same(g, w):
                del left[j]
                break
        else:
            return False
    return 'rowsort'


def main():
    argv = sys.argv[1:]
    slt = None
    if '--slt' in argv:
        i = argv.index('--slt')
        slt = argv[i + 1]
        del argv[i:i + 2]
    args = [a for a in argv if a not in ('-v', '--cmd')]
    verbose = '-v' in argv
    section = 'cmd' if '--cmd' in argv else 'functions'
    sluice, gitdir, pages = args[0], args[1], args[2:]
    tmp = tempfile.mkdtemp(prefix='ppl-doc-')
    try:
        run(pages, sluice, gitdir, section, slt, verbose, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run(pages, sluice, gitdir, section, slt, verbose, tmp):
    """Runs the examples with a scratch data dir under tmp."""
    records, used = [], set()
    data = os.path.join(tmp, 'data')
    os.makedirs(data)
    stmts = []
    for name, f in TEST_DATA.items():
        path = os.path.join(data, f)
        with open(path, 'w') as out:
            out.write(git_show(gitdir, 'doctest/test_data/' + f))
        stmts.append(f"CREATE TABLE {name} USING json LOCATION '{path}'")
    dd = os.path.join(tmp, 'dd')
    subprocess.run([sluice, 'sql', '--local', '--data-dir', dd, '-e', ';\n'.join(stmts)],
                   check=True, capture_output=True)
    listing = subprocess.run(['git', '--git-dir', gitdir, 'ls-tree', '--name-only', 'HEAD',
                              'docs/user/ppl/' + section + '/'], check=True, capture_output=True,
                             text=True).stdout.split()
    total = passed = 0
    for path in listing:
        page = os.path.basename(path)[:-3]
        if pages and page not in pages:
            continue
        n = ok = 0
        for q, want, head in examples(git_show(gitdir, path)):
            n += 1
            r = subprocess.run([sluice, 'ppl', '--local', '--data-dir', dd, '--format', 'json',
                                '-e', q], capture_output=True, text=True)
            got = None
            if r.returncode == 0:
                try:
                    data = json.loads(r.stdout)
                    if data and sorted(data[0]) == sorted(head) and len(set(head)) == len(head):
                        data = [{k: row[k] for k in head} for row in data]
                    got = [l for row in data
                           for l in lines([render(v) for v in row.values()])]
                except ValueError:
                    got = None
            match = got is not None and rows_eq(got, want)
            if match:
                ok += 1
                tables = re.findall(r'source\s*=\s*(\w+)', q)
                if tables and all(n in TEST_DATA for n in tables):
                    used.update(tables)
                    sort = ' rowsort' if match == 'rowsort' else ''
                    records.append(f'query {"?" * max(1, len(want[0]) if want else 1)}{sort} ppl\n{q.rstrip(";").rstrip()}\n----\n')
            elif verbose:
                print(f'FAIL {page}: {q}\n  want {want}\n  got  {got if got is not None else r.stderr.strip()}')
        if n:
            print(f'{page:14} {ok:3}/{n}')
        total += n
        passed += ok
    print(f'{"total":14} {passed:3}/{total}')
    if slt:
        with open(slt, 'w') as out:
            out.write(f'# The examples of OpenSearch\'s docs/user/ppl/{section}/ pages ' + ', '.join(pages) +
                      '\n# with the rows they document (scripts/ppl_doc_examples.py --slt).\n\n')
            for name in sorted(used):
                out.write(f"statement ok\nCREATE TABLE {name} USING json LOCATION "
                          f"'${{TESTDATA}}/data/json/ppl_doc/{TEST_DATA[name]}'\n\n")
            out.write('\n'.join(records))


if __name__ == '__main__':
    main()
