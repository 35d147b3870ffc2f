/**
 * The country table (spec §9: "The country table has about 195 entries (the United States maps to
 * 'USA'); the agent country list comes from the same map of codes to names").
 *
 * 195 entries: the 193 member states of the United Nations plus its two observer states, the Holy See
 * (listed as Vatican City, ISO VA/VAT) and Palestine (ISO PS/PSE). Codes are ISO 3166-1 alpha-2 and
 * alpha-3; names are the common English short names. Left out on purpose, to keep the table to the
 * spec's "about 195": Taiwan (TW/TWN) and Hong Kong (HK/HKG), which have ISO codes but are not UN
 * members or observers, and Kosovo, which has no ISO 3166-1 code at all (XK is only a user-assigned
 * code). Any of them can still be added by an admin (`POST /countries`).
 */

export interface Country {
  /** ISO 3166-1 alpha-2 ('US'). */
  code: string;
  /** ISO 3166-1 alpha-3 ('USA'). */
  code3: string;
  /** Common English short name ('United States'). */
  name: string;
}

const TABLE = `
AF AFG Afghanistan
AL ALB Albania
DZ DZA Algeria
AD AND Andorra
AO AGO Angola
AG ATG Antigua and Barbuda
AR ARG Argentina
AM ARM Armenia
AU AUS Australia
AT AUT Austria
AZ AZE Azerbaijan
BS BHS Bahamas
BH BHR Bahrain
BD BGD Bangladesh
BB BRB Barbados
BY BLR Belarus
BE BEL Belgium
BZ BLZ Belize
BJ BEN Benin
BT BTN Bhutan
BO BOL Bolivia
BA BIH Bosnia and Herzegovina
BW BWA Botswana
BR BRA Brazil
BN BRN Brunei
BG BGR Bulgaria
BF BFA Burkina Faso
BI BDI Burundi
CV CPV Cabo Verde
KH KHM Cambodia
CM CMR Cameroon
CA CAN Canada
CF CAF Central African Republic
TD TCD Chad
CL CHL Chile
CN CHN China
CO COL Colombia
KM COM Comoros
CG COG Congo
CR CRI Costa Rica
CI CIV Côte d'Ivoire
HR HRV Croatia
CU CUB Cuba
CY CYP Cyprus
CZ CZE Czechia
CD COD Democratic Republic of the Congo
DK DNK Denmark
DJ DJI Djibouti
DM DMA Dominica
DO DOM Dominican Republic
EC ECU Ecuador
EG EGY Egypt
SV SLV El Salvador
GQ GNQ Equatorial Guinea
ER ERI Eritrea
EE EST Estonia
SZ SWZ Eswatini
ET ETH Ethiopia
FJ FJI Fiji
FI FIN Finland
FR FRA France
GA GAB Gabon
GM GMB Gambia
GE GEO Georgia
DE DEU Germany
GH GHA Ghana
GR GRC Greece
GD GRD Grenada
GT GTM Guatemala
GN GIN Guinea
GW GNB Guinea-Bissau
GY GUY Guyana
HT HTI Haiti
HN HND Honduras
HU HUN Hungary
IS ISL Iceland
IN IND India
ID IDN Indonesia
IR IRN Iran
IQ IRQ Iraq
IE IRL Ireland
IL ISR Israel
IT ITA Italy
JM JAM Jamaica
JP JPN Japan
JO JOR Jordan
KZ KAZ Kazakhstan
KE KEN Kenya
KI KIR Kiribati
KW KWT Kuwait
KG KGZ Kyrgyzstan
LA LAO Laos
LV LVA Latvia
LB LBN Lebanon
LS LSO Lesotho
LR LBR Liberia
LY LBY Libya
LI LIE Liechtenstein
LT LTU Lithuania
LU LUX Luxembourg
MG MDG Madagascar
MW MWI Malawi
MY MYS Malaysia
MV MDV Maldives
ML MLI Mali
MT MLT Malta
MH MHL Marshall Islands
MR MRT Mauritania
MU MUS Mauritius
MX MEX Mexico
FM FSM Micronesia
MD MDA Moldova
MC MCO Monaco
MN MNG Mongolia
ME MNE Montenegro
MA MAR Morocco
MZ MOZ Mozambique
MM MMR Myanmar
NA NAM Namibia
NR NRU Nauru
NP NPL Nepal
NL NLD Netherlands
NZ NZL New Zealand
NI NIC Nicaragua
NE NER Niger
NG NGA Nigeria
KP PRK North Korea
MK MKD North Macedonia
NO NOR Norway
OM OMN Oman
PK PAK Pakistan
PW PLW Palau
PS PSE Palestine
PA PAN Panama
PG PNG Papua New Guinea
PY PRY Paraguay
PE PER Peru
PH PHL Philippines
PL POL Poland
PT PRT Portugal
QA QAT Qatar
RO ROU Romania
RU RUS Russia
RW RWA Rwanda
KN KNA Saint Kitts and Nevis
LC LCA Saint Lucia
VC VCT Saint Vincent and the Grenadines
WS WSM Samoa
SM SMR San Marino
ST STP Sao Tome and Principe
SA SAU Saudi Arabia
SN SEN Senegal
RS SRB Serbia
SC SYC Seychelles
SL SLE Sierra Leone
SG SGP Singapore
SK SVK Slovakia
SI SVN Slovenia
SB SLB Solomon Islands
SO SOM Somalia
ZA ZAF South Africa
KR KOR South Korea
SS SSD South Sudan
ES ESP Spain
LK LKA Sri Lanka
SD SDN Sudan
SR SUR Suriname
SE SWE Sweden
CH CHE Switzerland
SY SYR Syria
TJ TJK Tajikistan
TZ TZA Tanzania
TH THA Thailand
TL TLS Timor-Leste
TG TGO Togo
TO TON Tonga
TT TTO Trinidad and Tobago
TN TUN Tunisia
TR TUR Türkiye
TM TKM Turkmenistan
TV TUV Tuvalu
UG UGA Uganda
UA UKR Ukraine
AE ARE United Arab Emirates
GB GBR United Kingdom
US USA United States
UY URY Uruguay
UZ UZB Uzbekistan
VU VUT Vanuatu
VA VAT Vatican City
VE VEN Venezuela
VN VNM Vietnam
YE YEM Yemen
ZM ZMB Zambia
ZW ZWE Zimbabwe
`;

/** Every country, sorted by name. */
export const COUNTRIES: readonly Country[] = Object.freeze(
  TABLE.trim()
    .split('\n')
    .map((line) => {
      const [, code, code3, name] = /^([A-Z]{2}) ([A-Z]{3}) (.+)$/.exec(line.trim())!;
      return Object.freeze({ code, code3, name });
    }),
);

/** Alpha-2 code → name: the map the agent country picker and every country label read. */
export const COUNTRY_NAMES: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(COUNTRIES.map((c) => [c.code, c.name])),
);

const byCode = new Map<string, Country>();
for (const c of COUNTRIES) {
  byCode.set(c.code, c);
  byCode.set(c.code3, c);
}

/** The country of an alpha-2 or alpha-3 code, in any letter case; undefined when unknown. */
export function findCountry(code: string | null | undefined): Country | undefined {
  if (typeof code !== 'string') return undefined;
  return byCode.get(code.trim().toUpperCase());
}

/** The name of an alpha-2 or alpha-3 code ('us', 'USA' → 'United States'); undefined when unknown. */
export function countryName(code: string | null | undefined): string | undefined {
  return findCountry(code)?.name;
}

/** The alpha-3 code of an alpha-2 or alpha-3 code ('US' → 'USA'); undefined when unknown. */
export function alpha3(code: string | null | undefined): string | undefined {
  return findCountry(code)?.code3;
}

/** What `displayName` shows for a country the table does not know (spec §9). */
export const UNKNOWN_COUNTRY = 'XX';

/** The first letter of a name, upper-cased ('émile' → 'É'); '' for a blank name. */
function initial(name: string | null | undefined): string {
  const first = Array.from(typeof name === 'string' ? name.trim() : '')[0] ?? '';
  return first.toLocaleUpperCase('en-US');
}

/**
 * Spec §9 display-name helper: "initials of three names joined by dots plus a country code, 'XX' if
 * unknown", where the country table maps the United States to 'USA'.
 *
 * Exact format: the upper-cased first letter of each of first, middle and last name, then the
 * country's ISO alpha-3 code, all joined by '.':
 *   displayName('John', 'Paul', 'Smith', 'US')  === 'J.P.S.USA'
 *   displayName('rahim', 'uddin', 'khan', 'bgd') === 'R.U.K.BGD'   (alpha-2 or alpha-3, any case)
 *   displayName('John', 'Paul', 'Smith', 'ZZ')  === 'J.P.S.XX'    (unknown, empty or missing code)
 * A blank name (no middle name, say) gives no initial rather than an empty slot:
 *   displayName('John', '', 'Smith', 'US')      === 'J.S.USA'
 *   displayName('', '', '', 'US')               === 'USA'
 */
export function displayName(
  first: string | null | undefined,
  middle: string | null | undefined,
  last: string | null | undefined,
  countryCode: string | null | undefined,
): string {
  const initials = [first, middle, last].map(initial).filter(Boolean);
  return [...initials, alpha3(countryCode) ?? UNKNOWN_COUNTRY].join('.');
}
