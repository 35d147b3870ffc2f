/** The app's name, as pages that have no screen title of their own show it (not react-admin's 'React Admin'). */
export const APP_NAME = 'Marketplace Admin';

/**
 * The product's name as the browser storage keys spell it (spec §9: "kept in browser storage under a
 * {product}-house key").
 */
export const PRODUCT_NAME = 'marketplace';

/** Where the referral record (`{ bref }`, spec §3 "A referral record in browser storage holds bref") is kept. */
export const REFERRAL_STORAGE_KEY = `${PRODUCT_NAME}-house`;
