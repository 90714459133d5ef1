/**
 * Lets the process end while `timer` still waits: a pending refund, retry or health check must
 * not keep the sandbox running. Outside Node a timer is a plain number, which needs nothing.
 */
export function unrefTimer(timer: ReturnType<typeof setTimeout>): void {
  (timer as { unref?: () => void }).unref?.();
}
