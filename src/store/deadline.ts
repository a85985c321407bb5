// One way to wait on something outside the process with a deadline: a Redis
// command, a Redis close, the harness's spill store. The timer is unref'd, so a
// wait that is abandoned never keeps the process alive.

/** What `within` answers when the deadline passed first. */
export const LATE = Symbol('late');

/** `work`'s outcome, or LATE when it has not settled within `ms`; a rejection passes through. */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
