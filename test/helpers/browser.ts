/**
 * The Chromium that browser tests drive: CHROMIUM_PATH, else /usr/bin/chromium. Where neither is
 * set nor present, those tests skip and say how to get one, so `npm test` passes on a fresh
 * machine; GATEHOUSE_TEST_REQUIRE_BROWSER=1 (CI sets it) makes a missing browser a failure, so a
 * run that must cover them never skips them. A CHROMIUM_PATH that is set is used as it is: a wrong
 * one fails at launch rather than skipping.
 */
import fs from 'node:fs';

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

export type ChromiumLookup =
  | { found: true; executablePath: string }
  | { found: false; required: boolean; reason: string };

/** Where Chromium is, or why there is none and whether that fails the run. */
export function findChromium(env: NodeJS.ProcessEnv = process.env, exists: (file: string) => boolean = fs.existsSync): ChromiumLookup {
  const configured = env.CHROMIUM_PATH;
  if (configured) return { found: true, executablePath: configured };
  if (exists(DEFAULT_CHROMIUM_PATH)) return { found: true, executablePath: DEFAULT_CHROMIUM_PATH };
  return {
    found: false,
    required: env.GATEHOUSE_TEST_REQUIRE_BROWSER === '1',
    reason: `no Chromium (CHROMIUM_PATH is unset and ${DEFAULT_CHROMIUM_PATH} is absent): apt-get install chromium, or set CHROMIUM_PATH`,
  };
}

/** The `skip` option of a browser test: the reason when it cannot run and may skip; false otherwise. */
export function skipWithoutChromium(lookup: ChromiumLookup): string | false {
  return !lookup.found && !lookup.required ? lookup.reason : false;
}

/** The executable to launch; throws the reason when there is none (GATEHOUSE_TEST_REQUIRE_BROWSER=1). */
export function chromiumExecutable(lookup: ChromiumLookup): string {
  if (lookup.found) return lookup.executablePath;
  throw new Error(`GATEHOUSE_TEST_REQUIRE_BROWSER=1, but ${lookup.reason}`);
}
