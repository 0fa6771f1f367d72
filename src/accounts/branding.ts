/**
 * An account's look on the sign-in pages: its name, an optional brand colour and an optional logo.
 *
 * - The logo is an image kept in the account row as a `data:` URI (PNG, JPEG, GIF or WebP, at
 *   most LOGO_MAX_BYTES once decoded), so the page carries it and the browser fetches nothing
 *   from anyone: the pages' CSP allows images from `data:` only. The declared type must match
 *   the image's own signature, so a script or an HTML file cannot pass for a picture. SVG is
 *   refused: it is a document that can carry scripts and links.
 * - The colour is `#rrggbb`. Text on it is black or white, whichever contrasts more (WCAG 2.x
 *   relative luminance), which always reaches at least 4.58:1, above the 4.5:1 of WCAG 1.4.3.
 *   Text on the page itself keeps the default dark colour, so no colour chosen can make it
 *   unreadable.
 */
export const LOGO_MAX_BYTES = 32 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
/** The longest `data:` URI a logo of LOGO_MAX_BYTES takes (base64 is 4 characters per 3 bytes). */
export const LOGO_MAX_LENGTH = 'data:image/jpeg;base64,'.length + Math.ceil(LOGO_MAX_BYTES / 3) * 4;
export const COLOR_PATTERN = '^#[0-9A-Fa-f]{6}$';

const SIGNATURES: Record<(typeof LOGO_TYPES)[number], (bytes: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')),
  'image/webp': (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

/** Why `uri` is not an acceptable logo, or undefined when it is. */
export function logoViolation(uri: string): string | undefined {
  const match = /^data:(image\/[a-z]+);base64,([A-Za-z0-9+/]+={0,2})$/.exec(uri);
  if (!match) return 'logo must be a data: URI of a base64-encoded image (data:image/png;base64,…)';
  const type = match[1] as (typeof LOGO_TYPES)[number];
  if (!LOGO_TYPES.includes(type)) return `logo must be one of ${LOGO_TYPES.join(', ')}`;
  const bytes = Buffer.from(match[2]!, 'base64');
  if (bytes.length > LOGO_MAX_BYTES) return `logo must be at most ${LOGO_MAX_BYTES} bytes (it has ${bytes.length})`;
  if (!SIGNATURES[type](bytes)) return `logo is declared ${type} but its content is not a ${type.slice(6).toUpperCase()} image`;
  return undefined;
}

/** WCAG 2.x relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Black or white, whichever is more legible on `background`. */
export function textColorOn(background: string): '#000000' | '#ffffff' {
  return contrastRatio(background, '#000000') >= contrastRatio(background, '#ffffff') ? '#000000' : '#ffffff';
}

/** What the pages show of an account. */
export interface Branding {
  name: string;
  color: string | null;
  logo: string | null;
}
