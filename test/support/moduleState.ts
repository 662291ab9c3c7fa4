/**
 * State a module keeps of its own, found in its source. The worker preloads the workflows' modules
 * and every workflow it runs shares them (worker/workflowBundle.ts), so a workflow module may hold
 * constants only. Module-level values are allowed when nobody can change them: exported ones (the
 * SDK freezes what a preloaded module exports), `as const` or readonly-typed ones, functions and
 * the results of calls (definitions, activity proxies). Refused: `let` and `var`, a new mutable
 * collection or an empty literal (what a module would collect into), a literal that is neither
 * exported nor readonly, a regular expression with state (`g` or `y`), a static class field that
 * is not readonly.
 */
import ts from 'typescript';

const MUTABLE_COLLECTIONS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'Array', 'Object']);

/** Peels `(…)`, `… satisfies T` and type assertions other than `as const`. */
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

const isReadonlyType = (type: ts.TypeNode | undefined): boolean =>
  type !== undefined &&
  ((ts.isTypeOperatorNode(type) && type.operator === ts.SyntaxKind.ReadonlyKeyword) ||
    (ts.isTypeReferenceNode(type) && /^Readonly(Array|Map|Set)?$/.test(type.typeName.getText())));

const isExported = (statement: ts.Statement): boolean =>
  ts.canHaveModifiers(statement) &&
  (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

function declarationProblem(declaration: ts.VariableDeclaration, exported: boolean): string | undefined {
  if (!declaration.initializer) return undefined;
  const { expression, asConst } = innermost(declaration.initializer);
  if (ts.isNewExpression(expression) && MUTABLE_COLLECTIONS.has(expression.expression.getText()))
    return `a new ${expression.expression.getText()}`;
  if (ts.isArrayLiteralExpression(expression) || ts.isObjectLiteralExpression(expression)) {
    const elements = ts.isArrayLiteralExpression(expression) ? expression.elements : expression.properties;
    if (elements.length === 0) return 'an empty literal';
    if (!exported && !asConst && !isReadonlyType(declaration.type)) return 'a literal neither exported nor readonly';
  }
  if (ts.isRegularExpressionLiteral(expression) && /\/[a-z]*[gy][a-z]*$/.test(expression.text))
    return 'a regular expression with state (g or y)';
  return undefined;
}

function classProblems(statement: ts.ClassDeclaration): string[] {
  return statement.members
    .filter(
      (m) =>
        ts.isPropertyDeclaration(m) &&
        (ts.getModifiers(m) ?? []).some((x) => x.kind === ts.SyntaxKind.StaticKeyword) &&
        !(ts.getModifiers(m) ?? []).some((x) => x.kind === ts.SyntaxKind.ReadonlyKeyword),
    )
    .map((m) => `static ${m.name?.getText()} of class ${statement.name?.getText()} is not readonly`);
}

/** Each module-level value of `source` that could hold state, as "line: name: why". */
export function moduleStateOf(source: string, fileName = 'module.ts'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, true);
  const problems: string[] = [];
  const at = (node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  for (const statement of file.statements) {
    if (ts.isClassDeclaration(statement))
      problems.push(...classProblems(statement).map((p) => `${at(statement)}: ${p}`));
    if (!ts.isVariableStatement(statement)) continue;
    const kind = statement.declarationList.flags & ts.NodeFlags.Const ? 'const' : 'let or var';
    for (const declaration of statement.declarationList.declarations) {
      const name = declaration.name.getText();
      const problem =
        kind === 'const' ? declarationProblem(declaration, isExported(statement)) : 'a let or var at module level';
      if (problem) problems.push(`${at(declaration)}: ${name}: ${problem}`);
    }
  }
  return problems;
}
