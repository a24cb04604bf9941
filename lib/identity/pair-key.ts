/** The one key of an identifier pair, for maps and sets (NUL cannot occur in stored text). */
export const pairKey = (source: string, externalId: string) => `${source}\u0000${externalId}`;
