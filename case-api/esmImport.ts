/**
 * Loads an ESM-only package (openid-client) from this CommonJS code. With `module: commonjs`,
 * TypeScript (and the swc transform) rewrite `import()` into `require()`, which on Node 20 loads an
 * ES module only with an ExperimentalWarning, or not at all; a function made from source text is
 * left alone by both, so the native `import()` runs: under tsx (`npm run api`, `npm start`) and
 * from the compiled `dist/` (`npm run build`) alike. Jest's CommonJS runtime cannot run it, so
 * the test that signs in with OpenID Connect runs the case API as a process of its own.
 */
const nativeImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

export const importEsm = <Module>(specifier: string): Promise<Module> => nativeImport(specifier) as Promise<Module>;
