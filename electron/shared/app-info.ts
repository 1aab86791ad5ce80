export const APP_NAME = 'LabelDesk';
