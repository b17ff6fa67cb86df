import leftPad from 'left-pad';

export const label = (n) => `#${leftPad(n, 4, '0')}`;
