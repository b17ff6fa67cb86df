import { byId, User } from './user';

const users: User[] = [{ id: 1, name: 'ann', admin: true }];
console.log(byId(users, 1).name);
