/**
 * State a module keeps of its own, found in its source. The worker preloads the workflows' modules
 * and every workflow it runs shares them (worker/workflowBundle.ts), so a workflow module may hold
 * constants only. Module-level values are allowed when nobody can change them: exported ones (the
 * SDK freezes what a preloaded module exports), `as const` or readonly-typed ones, functions and
 * the results of calls (definitions, activity proxies). Refused: `let` and `var`; a literal that
 * is neither exported nor readonly; and, anywhere in a module-level value (a nested one, an
 * exported one, a static class field's), what can change however it is declared: a new `Map`,
 * `Set`, `Array`, `Object` or `RegExp`, `Object.create`, `Array.from`, an empty literal (what a
 * module would collect into), a function called where it is defined (its closure outlives the
 * call), a regular expression with state (`g` or `y`). Function bodies are not read: what they
 * create belongs to the call.
 */
import ts from 'typescript';

const MUTABLE_CONSTRUCTORS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'Array', 'Object', 'RegExp']);
const MUTABLE_FACTORIES = new Set(['Object.create', 'Array.from', 'Array.of']);

/** `globalThis.Map` and `Map` alike. */
const calleeName = (expression: ts.Expression) => expression.getText().replace(/^globalThis\./, '');

/** Peels `(…)`, `… satisfies T` and type assertions; says whether one was `as const`. */
function innermost(expression: ts.Expression): { expression: ts.Expression; asConst: boolean } {
  let asConst = false;
  let e = expression;
  for (;;) {
    if (ts.isParenthesizedExpression(e) || ts.isSatisfiesExpression(e)) e = e.expression;
    else if (ts.isAsExpression(e)) {
      if (ts.isTypeReferenceNode(e.type) && e.type.typeName.getText() === 'const') asConst = true;
      e = e.expression;
    } else return { expression: e, asConst };
  }
}

const isFunction = (node: ts.Node) =>
  ts.isArrowFunction(node) ||
  ts.isFunctionExpression(node) ||
  ts.isFunctionDeclaration(node) ||
  ts.isMethodDeclaration(node);

/** The first thing in `value` (function bodies aside) that can change whatever its declaration says. */
function changeableIn(value: ts.Expression): string | undefined {
  let found: string | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isNewExpression(node) && MUTABLE_CONSTRUCTORS.has(calleeName(node.expression)))
      found = `a new ${calleeName(node.expression)}`;
    else if (ts.isCallExpression(node) && MUTABLE_FACTORIES.has(calleeName(node.expression)))
      found = `${calleeName(node.expression)}(…)`;
    else if (ts.isCallExpression(node) && isFunction(innermost(node.expression).expression))
      found = 'a function called where it is defined, whose closure it keeps';
    else if (ts.isArrayLiteralExpression(node) && node.elements.length === 0) found = 'an empty literal';
    else if (ts.isObjectLiteralExpression(node) && node.properties.length === 0) found = 'an empty literal';
    else if (ts.isRegularExpressionLiteral(node) && /\/[a-z]*[gy][a-z]*$/.test(node.text))
      found = 'a regular expression with state (g or y)';
    if (found || isFunction(node)) return;
    ts.forEachChild(node, visit);
  };
  visit(value);
  return found;
}

const isReadonlyType = (type: ts.TypeNode | undefined): boolean =>
  type !== undefined &&
  ((ts.isTypeOperatorNode(type) && type.operator === ts.SyntaxKind.ReadonlyKeyword) ||
    (ts.isTypeReferenceNode(type) && /^Readonly(Array|Map|Set)?$/.test(type.typeName.getText())));

const hasModifier = (node: ts.Node, kind: ts.SyntaxKind): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);

function declarationProblem(declaration: ts.VariableDeclaration, exported: boolean): string | undefined {
  if (!declaration.initializer) return undefined;
  const changeable = changeableIn(declaration.initializer);
  if (changeable) return changeable;
  const { expression, asConst } = innermost(declaration.initializer);
  const literal = ts.isArrayLiteralExpression(expression) || ts.isObjectLiteralExpression(expression);
  if (literal && !exported && !asConst && !isReadonlyType(declaration.type))
    return 'a literal neither exported nor readonly';
  return undefined;
}

function classProblems(node: ts.ClassLikeDeclaration): string[] {
  const problems: string[] = [];
  for (const member of node.members) {
    if (!ts.isPropertyDeclaration(member) || !hasModifier(member, ts.SyntaxKind.StaticKeyword)) continue;
    const name = `static ${member.name.getText()} of class ${node.name?.getText() ?? '(anonymous)'}`;
    if (!hasModifier(member, ts.SyntaxKind.ReadonlyKeyword)) problems.push(`${name} is not readonly`);
    const changeable = member.initializer && changeableIn(member.initializer);
    if (changeable) problems.push(`${name}: ${changeable}`);
  }
  return problems;
}

/** Each module-level value of `source` that could hold state, as "line: name: why". */
export function moduleStateOf(source: string, fileName = 'module.ts'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, true);
  const problems: string[] = [];
  const at = (node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  for (const statement of file.statements) {
    if (ts.isClassDeclaration(statement))
      problems.push(...classProblems(statement).map((p) => `${at(statement)}: ${p}`));
    if (ts.isExpressionStatement(statement)) {
      const changeable = changeableIn(statement.expression);
      if (changeable) problems.push(`${at(statement)}: a module-level statement: ${changeable}`);
    }
    if (!ts.isVariableStatement(statement)) continue;
    const isConst = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const declaration of statement.declarationList.declarations) {
      const initializer = declaration.initializer && innermost(declaration.initializer).expression;
      if (initializer && ts.isClassExpression(initializer))
        problems.push(...classProblems(initializer).map((p) => `${at(declaration)}: ${p}`));
      const problem = isConst
        ? declarationProblem(declaration, hasModifier(statement, ts.SyntaxKind.ExportKeyword))
        : 'a let or var at module level';
      if (problem) problems.push(`${at(declaration)}: ${declaration.name.getText()}: ${problem}`);
    }
  }
  return problems;
}
