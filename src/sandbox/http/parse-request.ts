import type * as z from 'zod/mini';
import { toFieldIssues } from '../../core/validation.js';
import { SandboxError } from './sandbox-error.js';

/** Parses `body` with `schema`, or throws the service's validation error naming each field. */
export function parseRequest<S extends z.core.$ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = (schema as unknown as z.ZodMiniType).safeParse(body);
  if (!result.success) throw SandboxError.validation(toFieldIssues(result.error.issues, body));
  return result.data as z.infer<S>;
}
