#!/usr/bin/env python3
"""Keeps docs/architecture.md true to the tree.

Three checks, each failing with the file, the line and the rule it breaks:
  includes   every #include of engine/, services/, bench/ and tests/ is allowed by the table
             "Who may include whom" in docs/architecture.md (a folder may include itself and
             the folders its row lists; only rows that list `gRPC` may include gRPC; only rows
             that list `API protos` may include the service and event protos; nothing but
             tests/ includes tests/), every folder of engine/ and services/ has a row, and the
             table has no cycle;
  sizes      no .h or .cc file under engine/ or services/ has more than 600 lines;
  functions  no function under services/ is longer than 80 lines (from the line of its opening
             brace to the line of its closing brace, lambdas inside it included).
With --self-test it runs the checks on a small tree with a planted upward include, a long file
and a long function, and fails unless each is reported.

Usage: architecture_test.py --source-dir DIR [--self-test]
"""
import argparse
import os
import re
import sys
import tempfile

MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80
GRPC = 'gRPC'
API_PROTOS = 'API protos'
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def read_table(doc_path):
    """{folder: set of allowed folders and tokens}, from the doc's include table."""
    rows = {}
    in_table = False
    with open(doc_path, encoding='utf-8') as doc:
        for line in doc:
            if line.startswith('## Who may include whom'):
                in_table = True
                continue
            if in_table and line.startswith('## '):
                break
            if not in_table or not line.startswith('| `'):
                continue
            cells = [c.strip() for c in line.strip().strip('|').split('|')]
            folder = cells[0].strip('`')
            allowed = set(re.findall(r'`([^`]+)`', cells[-1]))
            for token in (GRPC, API_PROTOS):
                if token in cells[-1]:
                    allowed.add(token)
            rows[folder] = allowed
    return rows


def folder_of(path, rows):
    """The longest folder of the table that holds `path`, or None."""
    best = None
    for folder in rows:
        if path == folder or path.startswith(folder + '/'):
            if best is None or len(folder) > len(best):
                best = folder
    return best


def source_files(root, tops):
    for top in tops:
        for directory, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if name.endswith(('.h', '.cc')):
                    yield os.path.relpath(os.path.join(directory, name), root)


def check_table(rows):
    problems = []
    for folder, allowed in rows.items():
        for target in allowed - {GRPC, API_PROTOS}:
            if target not in rows:
                problems.append(f'docs/architecture.md: row {folder} allows {target}, which has no row')
    # No cycle: a depth-first search over the folder edges.
    state = {}

    def visit(folder, path):
        state[folder] = 'open'
        for target in sorted(rows.get(folder, ())):
            if target not in rows or target == folder:
                continue
            if state.get(target) == 'open':
                problems.append('docs/architecture.md: the table has a cycle: ' +
                                ' -> '.join(path + [target]))
            elif target not in state:
                visit(target, path + [target])
        state[folder] = 'done'

    for folder in sorted(rows):
        if folder not in state:
            visit(folder, [folder])
    return problems


def check_folders(root, rows):
    problems = []
    for top in ('engine', 'services'):
        for directory, dirs, files in os.walk(os.path.join(root, top)):
            rel = os.path.relpath(directory, root)
            if any(f.endswith(('.h', '.cc')) for f in files) and folder_of(rel, rows) is None:
                problems.append(f'{rel}/: a folder with sources but no row in docs/architecture.md')
    return problems


def include_problem(path, kind, target, rows):
    """Why `path` may not include `target`, or None."""
    here = folder_of(path, rows)
    if here is None:
        return None  # check_folders reports it
    allowed = rows[here]
    is_grpc = target.startswith('grpcpp/') or target.startswith('grpc/') or target.endswith('.grpc.pb.h')
    if is_grpc:
        return None if GRPC in allowed else f'{here} may not include gRPC ({target})'
    if kind == '<':
        return None
    if target.startswith('arbiter/v1/'):
        api = target.endswith('_service.pb.h') or target.startswith('arbiter/v1/events/')
        if api and API_PROTOS not in allowed:
            return f'{here} may include only the data protos, not {target}'
        return None
    if target.startswith('tests/'):
        return None if path.startswith('tests/') else f'{here} may not include test code ({target})'
    there = folder_of(target, rows)
    if there is None or there == here or there in allowed:
        return None
    return f'{here} may not include {there} ({target}); docs/architecture.md lists what it may include'


def check_includes(root, rows):
    problems = []
    for path in source_files(root, ('engine', 'services', 'bench', 'tests')):
        with open(os.path.join(root, path), encoding='utf-8', errors='replace') as source:
            for number, line in enumerate(source, 1):
                match = INCLUDE.match(line)
                if match:
                    why = include_problem(path, match.group(1), match.group(2), rows)
                    if why:
                        problems.append(f'{path}:{number}: {why}')
    return problems


def check_sizes(root):
    problems = []
    for path in source_files(root, ('engine', 'services')):
        with open(os.path.join(root, path), encoding='utf-8', errors='replace') as source:
            count = sum(1 for _ in source)
        if count > MAX_FILE_LINES:
            problems.append(f'{path}: {count} lines; the limit is {MAX_FILE_LINES} (split it)')
    return problems


def strip_literals(src):
    """`src` with comments, strings and character literals blanked, newlines kept."""
    out = []
    i, n = 0, len(src)
    while i < n:
        if src.startswith('//', i):
            j = src.find('\n', i)
            i = n if j < 0 else j
            continue
        if src.startswith('/*', i):
            j = src.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append('\n' * src[i:j].count('\n'))
            i = j
            continue
        raw = re.match(r'R"([^(\s]*)\(', src[i:i + 24])
        if raw:
            end = ')' + raw.group(1) + '"'
            j = src.find(end, i)
            j = n if j < 0 else j + len(end)
            out.append('""' + '\n' * src[i:j].count('\n'))
            i = j
            continue
        c = src[i]
        if c == '"' or (c == "'" and not (i > 0 and src[i - 1].isalnum())):
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == '\\' else 1
            out.append(c + c)
            i = j + 1
            continue
        out.append(c)
        i += 1
    return ''.join(out)


KEYWORDS = {'if', 'for', 'while', 'switch', 'catch', 'return', 'sizeof', 'decltype', 'alignof',
            'noexcept', 'static_assert'}


def function_name(s, i):
    """The function whose body the brace at s[i] opens ('lambda' for one), or None."""
    j = i - 1
    while j >= 0 and s[j].isspace():
        j -= 1
    tail = s[max(0, j - 200):j + 1]
    m = re.search(r'(\)\s*(?:const|noexcept|override|final|mutable|\s)*)(->\s*[\w:<>,\s*&]+)?$', tail)
    if not m:
        return None
    k = max(0, j - 200) + m.start(1)
    depth = 0
    while k >= 0:
        if s[k] == ')':
            depth += 1
        elif s[k] == '(':
            depth -= 1
            if depth == 0:
                break
        k -= 1
    if k < 0:
        return None
    k -= 1
    while k >= 0 and s[k].isspace():
        k -= 1
    if k >= 0 and s[k] == ']':
        return 'lambda'
    end = k + 1
    while k >= 0 and (s[k].isalnum() or s[k] in '_:~'):
        k -= 1
    name = s[k + 1:end]
    return None if not name or name in KEYWORDS else name


def long_functions(path):
    """(lines, first line, name) of each outermost function body in the file."""
    with open(path, encoding='utf-8', errors='replace') as source:
        s = strip_literals(source.read())
    found, stack, line = [], [], 1
    for i, c in enumerate(s):
        if c == '\n':
            line += 1
        elif c == '{':
            stack.append((line, function_name(s, i)))
        elif c == '}' and stack:
            first, name = stack.pop()
            if name and not any(n for _, n in stack):
                found.append((line - first + 1, first, name))
    return found


def check_functions(root):
    problems = []
    for path in source_files(root, ('services',)):
        for lines, first, name in long_functions(os.path.join(root, path)):
            if lines > MAX_FUNCTION_LINES:
                problems.append(f'{path}:{first}: {name} is {lines} lines; the limit is '
                                f'{MAX_FUNCTION_LINES} (cut it into named steps)')
    return problems


def run_checks(root):
    rows = read_table(os.path.join(root, 'docs', 'architecture.md'))
    if not rows:
        return ['docs/architecture.md: no table under "## Who may include whom"']
    return (check_table(rows) + check_folders(root, rows) + check_includes(root, rows) +
            check_sizes(root) + check_functions(root))


def self_test():
    """The checks on a small tree with one planted fault of each kind."""
    with tempfile.TemporaryDirectory() as root:
        def write(path, text):
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), 'w', encoding='utf-8') as f:
                f.write(text)
        write('docs/architecture.md', '## Who may include whom\n| folder | may include |\n|---|---|\n'
              '| `engine/core` | |\n| `services/store` | `engine/core` |\n'
              '| `services/server` | `services/store`, `engine/core`, gRPC, API protos |\n## Next\n')
        write('engine/core/a.h', '#include "engine/core/b.h"\n')
        write('services/store/store.h', '#include "engine/core/a.h"\n#include "services/server/server.h"\n')
        write('services/server/server.h', '#include <grpcpp/grpcpp.h>\n#include "services/store/store.h"\n')
        write('engine/core/long.cc', '// x\n' * (MAX_FILE_LINES + 1))
        body = '\n'.join('  x += %d;' % k for k in range(MAX_FUNCTION_LINES))
        write('services/store/long.cc', 'int F(int x) {\n%s\n  return x;\n}\nint G() { return 1; }\n' % body)
        problems = run_checks(root)
    expected = ['services/store/store.h:2: services/store may not include services/server',
                'engine/core/long.cc: 601 lines',
                'services/store/long.cc:1: F is 83 lines']
    missing = [e for e in expected if not any(p.startswith(e) for p in problems)]
    unexpected = [p for p in problems if not any(p.startswith(e) for e in expected)]
    for m in missing:
        print('self-test: not reported: ' + m)
    for u in unexpected:
        print('self-test: reported wrongly: ' + u)
    return not missing and not unexpected


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--source-dir', required=True)
    parser.add_argument('--self-test', action='store_true')
    args = parser.parse_args()
    if args.self_test:
        ok = self_test()
        print('self-test: every planted fault was reported' if ok else 'self-test FAILED')
        return 0 if ok else 1
    problems = run_checks(args.source_dir)
    for problem in problems:
        print(problem)
    if problems:
        print(f'{len(problems)} problem(s); docs/architecture.md says what goes where')
        return 1
    print('every include, file size and function length agrees with docs/architecture.md')
    return 0


if __name__ == '__main__':
    sys.exit(main())
