/** Reading what a test app logged: its JSON lines as objects, and the lines of one log event. */
import type { TestApp } from './test-app.ts';
import type { Json } from './http.ts';

/** Every line logged so far, parsed (a line that is not JSON fails the test). */
export function logLines(t: Pick<TestApp, 'logs'>): Json[] {
  return t.logs
    .join('')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Json);
}

/** The lines of one catalogued event (docs/OPERATIONS.md, "Log events"), oldest first. */
export function eventLines(t: Pick<TestApp, 'logs'>, event: string): Json[] {
  return logLines(t).filter((line) => line.event === event);
}
