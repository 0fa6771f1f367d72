/** Small fetch helpers for tests: JSON bodies are read as `any` so assertions can walk them. */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export async function json(response: Response): Promise<Json> {
  const text = await response.text();
  return text === '' ? undefined : JSON.parse(text);
}
