/** The app's name, as pages that have no screen title of their own show it (not react-admin's 'React Admin'). */
export const APP_NAME = 'Marketplace Admin';
