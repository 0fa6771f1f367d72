/**
 * ISO 4217 active currency codes. A currency is three upper-case letters from this list;
 * funds codes (units of account such as CLF, USN, CHE), and codes for precious metals, testing and
 * "no currency" (XAU, XTS, XXX…) are not money here.
 */
const ISO_4217 = `AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD
CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD
GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD
LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR
PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD
TWD TZS UAH UGX USD UYU UZS VED VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG`;

export const CURRENCIES: readonly string[] = ISO_4217.split(/\s+/).filter(Boolean);

/** JSON schema for a currency member: the enum makes the OpenAPI document list the codes. */
export const currencySchema = {
  type: 'string',
  enum: CURRENCIES,
  description: 'ISO 4217 currency code, upper case (e.g. EUR, USD)',
  examples: ['EUR'],
} as const;

/** Largest amount accepted, in minor units: keeps every sum well inside exact integer range. */
export const MAX_AMOUNT = 1_000_000_000_000;

export const amountSchema = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_AMOUNT,
  description: 'Amount in minor units of the currency (e.g. cents), a whole number greater than 0',
  examples: [1250],
} as const;
