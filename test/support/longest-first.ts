import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first: each builds or starts whole apps (Next.js builds, the
 * packed package in framework shops, tsc over the emitted declarations) or a real redis-server.
 * Vitest orders files by the durations it cached on an earlier run; a fresh clone (CI) has none, so
 * it ran them in glob order, and the Next.js file, started after 108 s, ended the unit project alone.
 * Started first, they run beside the short files instead of after them.
 */
export const LONGEST = [
  'test/next/next-app.test.ts',
  'test/build/framework-shops.test.ts',
  'test/build/type-resolution.test.ts',
  'test/build/pack.test.ts',
  'test/server/redis/redis-checkout-store.test.ts',
  'test/react/jsx-types.test.ts',
  'test/lint/import-rule.test.ts',
  'test/sandbox/cli.test.ts',
  'test/docs/readme-node-server.test.ts',
];

/** Keeps the projects' order and, inside each, the cached order, with the files above moved to the front. */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = (spec: TestSpecification): number => {
      const at = LONGEST.indexOf(relative(root, spec.moduleId).split('\\').join('/'));
      return at === -1 ? LONGEST.length : at;
    };
    const byProject = new Map<string, TestSpecification[]>();
    for (const spec of sorted) {
      const group = byProject.get(spec.project.name) ?? [];
      group.push(spec);
      byProject.set(spec.project.name, group);
    }
    return [...byProject.values()].flatMap((group) => group.sort((a, b) => rank(a) - rank(b)));
  }
}
