// Countries the demo traffic comes from: GA names, ISO alpha-2/alpha-3, continent, language and a few cities.

export interface Country {
  name: string;
  alpha2: string;
  alpha3: string;
  continent: string;
  language: string;
  /** Relative global weight before a site's home-market boost. */
  weight: number;
  cities: readonly string[];
}

const C = (name: string, alpha2: string, alpha3: string, continent: string, language: string, weight: number, cities: string[]): Country =>
  ({ name, alpha2, alpha3, continent, language, weight, cities });

export const COUNTRIES: readonly Country[] = [
  C('United States', 'US', 'usa', 'Americas', 'English', 30, ['New York', 'Los Angeles', 'Chicago', 'Houston', 'Seattle']),
  C('Germany', 'DE', 'deu', 'Europe', 'German', 9, ['Berlin', 'Munich', 'Hamburg', 'Cologne']),
  C('United Kingdom', 'GB', 'gbr', 'Europe', 'English', 8, ['London', 'Manchester', 'Birmingham']),
  C('India', 'IN', 'ind', 'Asia', 'English', 8, ['Mumbai', 'Bengaluru', 'Delhi']),
  C('France', 'FR', 'fra', 'Europe', 'French', 5, ['Paris', 'Lyon', 'Marseille']),
  C('Canada', 'CA', 'can', 'Americas', 'English', 4, ['Toronto', 'Vancouver', 'Montreal']),
  C('Brazil', 'BR', 'bra', 'Americas', 'Portuguese', 4, ['São Paulo', 'Rio de Janeiro']),
  C('Japan', 'JP', 'jpn', 'Asia', 'Japanese', 3.5, ['Tokyo', 'Osaka']),
  C('Austria', 'AT', 'aut', 'Europe', 'German', 2, ['Vienna', 'Graz']),
  C('Switzerland', 'CH', 'che', 'Europe', 'German', 2, ['Zurich', 'Geneva']),
  C('Netherlands', 'NL', 'nld', 'Europe', 'Dutch', 2.5, ['Amsterdam', 'Rotterdam']),
  C('Spain', 'ES', 'esp', 'Europe', 'Spanish', 3, ['Madrid', 'Barcelona']),
  C('Italy', 'IT', 'ita', 'Europe', 'Italian', 3, ['Rome', 'Milan']),
  C('Australia', 'AU', 'aus', 'Oceania', 'English', 2.5, ['Sydney', 'Melbourne']),
  C('Mexico', 'MX', 'mex', 'Americas', 'Spanish', 2, ['Mexico City', 'Guadalajara']),
  C('Poland', 'PL', 'pol', 'Europe', 'Polish', 1.8, ['Warsaw', 'Kraków']),
  C('Sweden', 'SE', 'swe', 'Europe', 'Swedish', 1.2, ['Stockholm']),
  C('Belgium', 'BE', 'bel', 'Europe', 'Dutch', 1.1, ['Brussels', 'Antwerp']),
  C('Ireland', 'IE', 'irl', 'Europe', 'English', 0.9, ['Dublin']),
  C('Denmark', 'DK', 'dnk', 'Europe', 'Danish', 0.8, ['Copenhagen']),
  C('Norway', 'NO', 'nor', 'Europe', 'Norwegian', 0.7, ['Oslo']),
  C('Finland', 'FI', 'fin', 'Europe', 'Finnish', 0.6, ['Helsinki']),
  C('Portugal', 'PT', 'prt', 'Europe', 'Portuguese', 0.8, ['Lisbon', 'Porto']),
  C('Czechia', 'CZ', 'cze', 'Europe', 'Czech', 0.7, ['Prague']),
  C('Turkey', 'TR', 'tur', 'Asia', 'Turkish', 1.2, ['Istanbul', 'Ankara']),
  C('South Korea', 'KR', 'kor', 'Asia', 'Korean', 1.3, ['Seoul']),
  C('Singapore', 'SG', 'sgp', 'Asia', 'English', 0.8, ['Singapore']),
  C('Indonesia', 'ID', 'idn', 'Asia', 'Indonesian', 1.5, ['Jakarta']),
  C('Philippines', 'PH', 'phl', 'Asia', 'English', 1.2, ['Manila']),
  C('Vietnam', 'VN', 'vnm', 'Asia', 'Vietnamese', 1, ['Ho Chi Minh City', 'Hanoi']),
  C('South Africa', 'ZA', 'zaf', 'Africa', 'English', 0.8, ['Johannesburg', 'Cape Town']),
  C('Nigeria', 'NG', 'nga', 'Africa', 'English', 0.7, ['Lagos']),
  C('Egypt', 'EG', 'egy', 'Africa', 'Arabic', 0.6, ['Cairo']),
  C('Argentina', 'AR', 'arg', 'Americas', 'Spanish', 0.9, ['Buenos Aires']),
  C('Colombia', 'CO', 'col', 'Americas', 'Spanish', 0.7, ['Bogotá']),
  C('Chile', 'CL', 'chl', 'Americas', 'Spanish', 0.5, ['Santiago']),
  C('New Zealand', 'NZ', 'nzl', 'Oceania', 'English', 0.5, ['Auckland']),
  C('Israel', 'IL', 'isr', 'Asia', 'Hebrew', 0.6, ['Tel Aviv']),
  C('United Arab Emirates', 'AE', 'are', 'Asia', 'Arabic', 0.6, ['Dubai']),
  C('Ukraine', 'UA', 'ukr', 'Europe', 'Ukrainian', 0.6, ['Kyiv']),
];

/** The country whose market a site's time zone points at (home traffic is boosted). */
export function homeCountry(timezone: string): string {
  if (timezone.startsWith('Europe/Berlin')) return 'DE';
  if (timezone.startsWith('America/')) return 'US';
  if (timezone.startsWith('Europe/London')) return 'GB';
  return 'US';
}
