// ISO 3166-1 country table and `normaliseCountry`: alpha-2, alpha-3 or English name (as analytics reports it) → alpha-3.

/**
 * One line per country: alpha-2, alpha-3, ISO English short name, then the other English names seen in
 * practice (the analytics provider's display names, common short forms). Kosovo (XK/XKK) is not in
 * ISO 3166-1 but both the analytics and search providers report it under these user-assigned codes.
 */
const TABLE = `
AD|AND|Andorra
AE|ARE|United Arab Emirates|UAE
AF|AFG|Afghanistan
AG|ATG|Antigua and Barbuda
AI|AIA|Anguilla
AL|ALB|Albania
AM|ARM|Armenia
AO|AGO|Angola
AQ|ATA|Antarctica
AR|ARG|Argentina
AS|ASM|American Samoa
AT|AUT|Austria
AU|AUS|Australia
AW|ABW|Aruba
AX|ALA|Åland Islands
AZ|AZE|Azerbaijan
BA|BIH|Bosnia and Herzegovina
BB|BRB|Barbados
BD|BGD|Bangladesh
BE|BEL|Belgium
BF|BFA|Burkina Faso
BG|BGR|Bulgaria
BH|BHR|Bahrain
BI|BDI|Burundi
BJ|BEN|Benin
BL|BLM|Saint Barthélemy
BM|BMU|Bermuda
BN|BRN|Brunei Darussalam|Brunei
BO|BOL|Bolivia (Plurinational State of)|Bolivia
BQ|BES|Bonaire, Sint Eustatius and Saba|Caribbean Netherlands|Bonaire
BR|BRA|Brazil
BS|BHS|Bahamas
BT|BTN|Bhutan
BV|BVT|Bouvet Island
BW|BWA|Botswana
BY|BLR|Belarus
BZ|BLZ|Belize
CA|CAN|Canada
CC|CCK|Cocos (Keeling) Islands|Cocos Islands
CD|COD|Congo, Democratic Republic of the|Congo - Kinshasa|Democratic Republic of the Congo|DR Congo
CF|CAF|Central African Republic
CG|COG|Congo|Congo - Brazzaville|Republic of the Congo
CH|CHE|Switzerland
CI|CIV|Côte d'Ivoire|Ivory Coast
CK|COK|Cook Islands
CL|CHL|Chile
CM|CMR|Cameroon
CN|CHN|China
CO|COL|Colombia
CR|CRI|Costa Rica
CU|CUB|Cuba
CV|CPV|Cabo Verde|Cape Verde
CW|CUW|Curaçao
CX|CXR|Christmas Island
CY|CYP|Cyprus
CZ|CZE|Czechia|Czech Republic
DE|DEU|Germany
DJ|DJI|Djibouti
DK|DNK|Denmark
DM|DMA|Dominica
DO|DOM|Dominican Republic
DZ|DZA|Algeria
EC|ECU|Ecuador
EE|EST|Estonia
EG|EGY|Egypt
EH|ESH|Western Sahara
ER|ERI|Eritrea
ES|ESP|Spain
ET|ETH|Ethiopia
FI|FIN|Finland
FJ|FJI|Fiji
FK|FLK|Falkland Islands (Malvinas)|Falkland Islands (Islas Malvinas)|Falkland Islands
FM|FSM|Micronesia (Federated States of)|Micronesia
FO|FRO|Faroe Islands
FR|FRA|France
GA|GAB|Gabon
GB|GBR|United Kingdom of Great Britain and Northern Ireland|United Kingdom|Great Britain|UK
GD|GRD|Grenada
GE|GEO|Georgia
GF|GUF|French Guiana
GG|GGY|Guernsey
GH|GHA|Ghana
GI|GIB|Gibraltar
GL|GRL|Greenland
GM|GMB|Gambia
GN|GIN|Guinea
GP|GLP|Guadeloupe
GQ|GNQ|Equatorial Guinea
GR|GRC|Greece
GS|SGS|South Georgia and the South Sandwich Islands|South Georgia and South Sandwich Islands
GT|GTM|Guatemala
GU|GUM|Guam
GW|GNB|Guinea-Bissau
GY|GUY|Guyana
HK|HKG|Hong Kong|Hong Kong SAR China
HM|HMD|Heard Island and McDonald Islands|Heard and McDonald Islands
HN|HND|Honduras
HR|HRV|Croatia
HT|HTI|Haiti
HU|HUN|Hungary
ID|IDN|Indonesia
IE|IRL|Ireland
IL|ISR|Israel
IM|IMN|Isle of Man
IN|IND|India
IO|IOT|British Indian Ocean Territory
IQ|IRQ|Iraq
IR|IRN|Iran (Islamic Republic of)|Iran
IS|ISL|Iceland
IT|ITA|Italy
JE|JEY|Jersey
JM|JAM|Jamaica
JO|JOR|Jordan
JP|JPN|Japan
KE|KEN|Kenya
KG|KGZ|Kyrgyzstan
KH|KHM|Cambodia
KI|KIR|Kiribati
KM|COM|Comoros
KN|KNA|Saint Kitts and Nevis
KP|PRK|Korea (Democratic People's Republic of)|North Korea
KR|KOR|Korea, Republic of|South Korea
KW|KWT|Kuwait
KY|CYM|Cayman Islands
KZ|KAZ|Kazakhstan
LA|LAO|Lao People's Democratic Republic|Laos
LB|LBN|Lebanon
LC|LCA|Saint Lucia
LI|LIE|Liechtenstein
LK|LKA|Sri Lanka
LR|LBR|Liberia
LS|LSO|Lesotho
LT|LTU|Lithuania
LU|LUX|Luxembourg
LV|LVA|Latvia
LY|LBY|Libya
MA|MAR|Morocco
MC|MCO|Monaco
MD|MDA|Moldova, Republic of|Moldova
ME|MNE|Montenegro
MF|MAF|Saint Martin (French part)|Saint Martin
MG|MDG|Madagascar
MH|MHL|Marshall Islands
MK|MKD|North Macedonia|Macedonia|Macedonia (FYROM)
ML|MLI|Mali
MM|MMR|Myanmar|Myanmar (Burma)|Burma
MN|MNG|Mongolia
MO|MAC|Macao|Macau|Macao SAR China
MP|MNP|Northern Mariana Islands
MQ|MTQ|Martinique
MR|MRT|Mauritania
MS|MSR|Montserrat
MT|MLT|Malta
MU|MUS|Mauritius
MV|MDV|Maldives
MW|MWI|Malawi
MX|MEX|Mexico
MY|MYS|Malaysia
MZ|MOZ|Mozambique
NA|NAM|Namibia
NC|NCL|New Caledonia
NE|NER|Niger
NF|NFK|Norfolk Island
NG|NGA|Nigeria
NI|NIC|Nicaragua
NL|NLD|Netherlands (Kingdom of the)|Netherlands
NO|NOR|Norway
NP|NPL|Nepal
NR|NRU|Nauru
NU|NIU|Niue
NZ|NZL|New Zealand
OM|OMN|Oman
PA|PAN|Panama
PE|PER|Peru
PF|PYF|French Polynesia
PG|PNG|Papua New Guinea
PH|PHL|Philippines
PK|PAK|Pakistan
PL|POL|Poland
PM|SPM|Saint Pierre and Miquelon
PN|PCN|Pitcairn|Pitcairn Islands
PR|PRI|Puerto Rico
PS|PSE|Palestine, State of|Palestine|Palestinian Territories
PT|PRT|Portugal
PW|PLW|Palau
PY|PRY|Paraguay
QA|QAT|Qatar
RE|REU|Réunion
RO|ROU|Romania
RS|SRB|Serbia
RU|RUS|Russian Federation|Russia
RW|RWA|Rwanda
SA|SAU|Saudi Arabia
SB|SLB|Solomon Islands
SC|SYC|Seychelles
SD|SDN|Sudan
SE|SWE|Sweden
SG|SGP|Singapore
SH|SHN|Saint Helena, Ascension and Tristan da Cunha|Saint Helena
SI|SVN|Slovenia
SJ|SJM|Svalbard and Jan Mayen
SK|SVK|Slovakia
SL|SLE|Sierra Leone
SM|SMR|San Marino
SN|SEN|Senegal
SO|SOM|Somalia
SR|SUR|Suriname
SS|SSD|South Sudan
ST|STP|Sao Tome and Principe
SV|SLV|El Salvador
SX|SXM|Sint Maarten (Dutch part)|Sint Maarten
SY|SYR|Syrian Arab Republic|Syria
SZ|SWZ|Eswatini|Swaziland
TC|TCA|Turks and Caicos Islands
TD|TCD|Chad
TF|ATF|French Southern Territories
TG|TGO|Togo
TH|THA|Thailand
TJ|TJK|Tajikistan
TK|TKL|Tokelau
TL|TLS|Timor-Leste|East Timor
TM|TKM|Turkmenistan
TN|TUN|Tunisia
TO|TON|Tonga
TR|TUR|Türkiye|Turkey
TT|TTO|Trinidad and Tobago
TV|TUV|Tuvalu
TW|TWN|Taiwan, Province of China|Taiwan
TZ|TZA|Tanzania, United Republic of|Tanzania
UA|UKR|Ukraine
UG|UGA|Uganda
UM|UMI|United States Minor Outlying Islands|U.S. Outlying Islands
US|USA|United States of America|United States
UY|URY|Uruguay
UZ|UZB|Uzbekistan
VA|VAT|Holy See|Vatican City
VC|VCT|Saint Vincent and the Grenadines|Saint Vincent and Grenadines
VE|VEN|Venezuela (Bolivarian Republic of)|Venezuela
VG|VGB|Virgin Islands (British)|British Virgin Islands
VI|VIR|Virgin Islands (U.S.)|U.S. Virgin Islands
VN|VNM|Viet Nam|Vietnam
VU|VUT|Vanuatu
WF|WLF|Wallis and Futuna
WS|WSM|Samoa
YE|YEM|Yemen
YT|MYT|Mayotte
ZA|ZAF|South Africa
ZM|ZMB|Zambia
ZW|ZWE|Zimbabwe
XK|XKK|Kosovo
`;

export interface Country {
  readonly alpha2: string;
  readonly alpha3: string;
  readonly name: string;
  readonly otherNames: readonly string[];
}

export const COUNTRIES: readonly Country[] = TABLE.trim()
  .split('\n')
  .map((line) => {
    const [alpha2 = '', alpha3 = '', name = '', ...otherNames] = line.split('|');
    return { alpha2, alpha3, name, otherNames };
  });

/** Folds a country name for lookup: accents, case, punctuation, `&`/`and`, `St.`/`Saint`, a leading `The`. */
function nameKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/&/g, ' and ')
    .replace(/\bst\b\.?/g, 'saint')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/^the /, '');
}

const BY_ALPHA2 = new Map(COUNTRIES.map((c) => [c.alpha2.toLowerCase(), c]));
const BY_ALPHA3 = new Map(COUNTRIES.map((c) => [c.alpha3.toLowerCase(), c]));
const BY_NAME = new Map(COUNTRIES.flatMap((c) => [c.name, ...c.otherNames].map((n) => [nameKey(n), c] as const)));

/** The country for an alpha-2 code, alpha-3 code or English name (any case); undefined when unknown. */
export function findCountry(raw: string): Country | undefined {
  const text = raw.trim();
  const lower = text.toLowerCase();
  const byCode = lower.length === 2 ? BY_ALPHA2.get(lower) : lower.length === 3 ? BY_ALPHA3.get(lower) : undefined;
  return byCode ?? BY_NAME.get(nameKey(text));
}

/**
 * The combining key of a country: ISO 3166-1 alpha-3 in lower case (`Germany`, `DE`, `deu` → `deu`).
 * Values that name no country (`(not set)`, engine1's `zzz`) come back trimmed and lower-cased, so
 * they still group with themselves.
 */
export function normaliseCountry(raw: string): string {
  return findCountry(raw)?.alpha3.toLowerCase() ?? raw.trim().toLowerCase();
}
