/**
 * A Node built-in module where the runtime has one, reached through `process.getBuiltinModule`
 * rather than imported: the checkout handler and the service client stay free of `node:` imports
 * and load wherever only the Fetch API exists (there this answers undefined).
 */
export function nodeBuiltin(id: string): unknown {
  try {
    const getBuiltinModule = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
    return typeof getBuiltinModule === 'function' ? getBuiltinModule(id) : undefined;
  } catch {
    return undefined;
  }
}
