// Country: the ISO 3166-1 codes and English name beside a row's country value, so analytics rows (which name
// countries, "Germany") and search rows (which give ISO alpha-3 codes, "deu") join on `code` without a client map.
import { findCountry, type Country } from '../../domain/countries.ts';
import { builder } from '../builder.ts';

export const CountryRef = builder.objectRef<Country>('Country').implement({
  description: 'A country by its ISO 3166-1 codes (Kosovo as XK / XKK, as the providers report it).',
  fields: (t) => ({
    code: t.exposeString('alpha2', { description: 'ISO 3166-1 alpha-2, upper case (DE).' }),
    alpha3: t.exposeString('alpha3', { description: 'ISO 3166-1 alpha-3, upper case (DEU).' }),
    name: t.exposeString('name', { description: 'The ISO English short name (Germany).' }),
  }),
});

/** The country a row's value names, when its dimension is a country one; null for other dimensions and for `(not set)`. */
export function countryOfValue(dimension: string, value: string): Country | null {
  return dimension === 'country' || dimension === 'countryId' ? (findCountry(value) ?? null) : null;
}
