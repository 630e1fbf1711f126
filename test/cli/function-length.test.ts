/**
 * No function in src/, commands/ or sync/ is longer than MAX_LINES: counted on the syntax tree the
 * TypeScript compiler parses (every function-like node with a body: declarations, methods, accessors,
 * constructors, function expressions and arrow functions), from its first token to its closing line,
 * nested functions included in the lines of the function that holds them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 120;
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return tsFiles(p);
    return p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

/** Every function with a body in `text`: its name (or kind), first line (1-based) and length in lines. */
function functionLengths(file: string, text: string): Array<{ name: string; line: number; lines: number }> {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: Array<{ name: string; line: number; lines: number }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const named = (node as ts.FunctionLikeDeclaration).name;
      out.push({ name: named ? named.getText(sf) : ts.SyntaxKind[node.kind], line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe('function length', () => {
  it('the count: lines from the first token to the closing brace, nested functions within their holder', () => {
    const text = [
      'export function three(a: number) {', // 1
      '  return a;', //                        2
      '}', //                                  3
      'const arrow = (x: string) =>', //       4
      '  x.length;', //                        5
      'class K {', //                          6
      '  method() {', //                       7
      '    const inner = function () {', //    8
      '      return `a', //                    9
      '}`;', //                               10
      '    };', //                            11
      '    return inner;', //                 12
      '  }', //                               13
      '  get g() { return 1; }', //           14
      '}', //                                 15
      'declare function bodiless(): void;', // 16: no body, not counted
    ].join('\n');
    expect(functionLengths('x.ts', text)).toEqual([
      { name: 'three', line: 1, lines: 3 },
      { name: 'ArrowFunction', line: 4, lines: 2 },
      { name: 'method', line: 7, lines: 7 },
      { name: 'FunctionExpression', line: 8, lines: 4 },
      { name: 'g', line: 14, lines: 1 },
    ]);
  });

  it(`no function in src/, commands/ or sync/ is over ${MAX_LINES} lines`, () => {
    const files = ['src', 'commands', 'sync'].flatMap((d) => tsFiles(join(root, d)));
    expect(files.length).toBeGreaterThan(100);
    const long = files.flatMap((f) =>
      functionLengths(f, readFileSync(f, 'utf8'))
        .filter((x) => x.lines > MAX_LINES)
        .map((x) => `${relative(root, f)}:${x.line} ${x.name} (${x.lines} lines)`),
    );
    expect(long).toEqual([]);
  });
});
