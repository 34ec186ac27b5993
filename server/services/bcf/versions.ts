/**
 * The BCF API versions the platform serves (seed 001, "Versioning"), and what differs
 * between them where a resource's shape does.
 */
export const BCF_VERSIONS = ['2.0', '2.1', '3.0'] as const;
export type BcfVersion = (typeof BCF_VERSIONS)[number];

export const DETAILED_VERSIONS: Record<BcfVersion, string> = {
  '2.0': 'BCF API 2.0 (the platform\'s; BCF-XML 2.0)',
  '2.1': 'BCF API 2.1 (BCF-XML 2.1)',
  '3.0': 'BCF API 3.0 (BCF-XML 3.0)',
};

/** A date-time as BCF writes it (`+0000`) or as ISO 8601 does (`+00:00`, `Z`); an invalid Date when it is neither. */
export const parseBcfDate = (text: string): Date => {
  const date = new Date(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  // Years the databases and ISO 8601's four digits keep; JavaScript's reach to 275760 (+275760-09-13) failed the INSERT.
  const year = date.getUTCFullYear();
  return year >= 1 && year <= 9999 ? date : new Date(Number.NaN);
};

/** Dates as the seed writes them: `YYYY-MM-DDThh:mm:ss.mmm+0000`. */
export const bcfDate = (date: Date | string | null | undefined): string | undefined => (date == null ? undefined : new Date(date).toISOString().replace('Z', '+0000'));
