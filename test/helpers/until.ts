/**
 * Waits until `ready()` holds, asking again every millisecond on real timers (`setTimeout`, which
 * a test faking only `setInterval` keeps). What it waits for comes from a socket or a server, so no
 * count of event-loop turns is enough on a loaded machine; 30 s is a bound for a hang, not a
 * duration. `step` runs before each wait (a test that has to keep something coming).
 */
export async function until(
  ready: () => boolean | Promise<boolean>,
  what: string,
  step: () => void = () => {},
): Promise<void> {
  const deadline = performance.now() + 30_000
  while (!(await ready())) {
    if (performance.now() > deadline) throw new Error(`still waiting after 30 s for ${what}`)
    step()
    await new Promise<void>((resolve) => setTimeout(resolve, 1))
  }
}
