exports.health = () => 0;
