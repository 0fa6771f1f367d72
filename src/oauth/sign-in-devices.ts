/**
 * Known sign-in devices (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a
 * browser that once signed in as a person carries a cookie that says so, and its attempts at that
 * person are counted on their own, not with everyone else's.
 *
 * Sign-in counts attempts per userName so that guessing one person's password from many
 * addresses stays slow. The same count would let anyone lock that person out: ten wrong
 * passwords in their name and the right one is refused too. With a device cookie, the person's
 * own browser is counted apart (as strictly: a stolen cookie buys no more guesses), so a stranger
 * spending the userName's attempts holds back only browsers the person never used.
 *
 * The cookie is `<nonce>.<mac>`: the MAC, under a key derived from the secrets key, binds the
 * nonce to the account and the userName (as typed at that sign-in, lower-cased and trimmed, as
 * the count is keyed), so it cannot be made up or carried over to another person. Nothing is
 * stored: the cookie is the whole record.
 */
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { safeEqual } from '../platform/crypto.ts';

/** How long a browser stays known after its last successful sign-in. */
export const DEVICE_TTL_SECONDS = 180 * 24 * 3600;

/** The key device cookies are made with, derived from the secrets key. */
export function signInDeviceKeyOf(secretsKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), 'gatehouse sign-in device', 32));
}

/** The userName as the sign-in count keys it. */
export const countedUserName = (userName: string) => userName.trim().toLowerCase();

export function createSignInDevices(key: Buffer) {
  const mac = (accountId: string, userName: string, nonce: string) =>
    createHmac('sha256', key).update(`${accountId}\n${countedUserName(userName)}\n${nonce}`).digest('base64url');
  return {
    /** A cookie value for a browser that has just signed in as `userName`. */
    issue(accountId: string, userName: string): string {
      const nonce = randomBytes(16).toString('base64url');
      return `${nonce}.${mac(accountId, userName, nonce)}`;
    },

    /** The device's id when `cookie` was issued to a browser that signed in as `userName`; else undefined. */
    knownFor(cookie: string | undefined, accountId: string, userName: string): string | undefined {
      if (!cookie) return undefined;
      const dot = cookie.indexOf('.');
      if (dot <= 0 || dot > 64) return undefined;
      const nonce = cookie.slice(0, dot);
      return safeEqual(cookie.slice(dot + 1), mac(accountId, userName, nonce)) ? nonce : undefined;
    },
  };
}

export type SignInDevices = ReturnType<typeof createSignInDevices>;
