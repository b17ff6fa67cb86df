function notify(send, user) {
  send(user.email, 'Welcome ' + user.name);
}
function parse(json) {
  return JSON.parse(json);
}
module.exports = { notify, parse };
