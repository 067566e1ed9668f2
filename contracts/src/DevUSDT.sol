// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title The devnet's USDT: a TRC-20 that behaves like TRON's TetherToken where it matters.
/// @notice Devnet and tests only. Like the real token: 6 decimals; `transfer` returns `false`
/// even when it succeeds (mainnet's TetherToken declares `returns (bool)` but never returns,
/// so callers see 32 zero bytes) while `transferFrom` returns `true`; an owner who issues and
/// redeems, pauses, and blacklists. Anything built on it must judge a transfer by balances,
/// never by the return value.
/// @dev Stricter than mainnet in one way: a blacklisted address can neither send nor receive,
/// so tests can show what happens when a withdrawal's recipient is frozen.
contract DevUSDT {
    string public constant name = "Tether USD";
    string public constant symbol = "USDT";
    uint8 public constant decimals = 6;

    address public owner;
    bool public paused;
    uint256 public totalSupply;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => bool) public isBlackListed;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Issue(uint256 amount);
    event Redeem(uint256 amount);
    event Pause();
    event Unpause();
    event AddedBlackList(address user);
    event RemovedBlackList(address user);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    modifier onlyOwner() {
        require(msg.sender == owner, "USDT: caller is not the owner");
        _;
    }

    modifier whenNotPaused() {
        require(!paused, "USDT: paused");
        _;
    }

    constructor(uint256 initialSupply) {
        owner = msg.sender;
        totalSupply = initialSupply;
        balanceOf[msg.sender] = initialSupply;
        emit Transfer(address(0), msg.sender, initialSupply);
    }

    /// @return Always false, as TRON's USDT: success is the balance change, not this value.
    function transfer(address to, uint256 value) external whenNotPaused returns (bool) {
        _move(msg.sender, to, value);
        return false;
    }

    function transferFrom(address from, address to, uint256 value)
        external
        whenNotPaused
        returns (bool)
    {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "USDT: allowance too low");
        if (allowed != type(uint256).max) {
            allowance[from][msg.sender] = allowed - value;
        }
        _move(from, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external whenNotPaused returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function issue(uint256 amount) external onlyOwner {
        totalSupply += amount;
        balanceOf[owner] += amount;
        emit Issue(amount);
        emit Transfer(address(0), owner, amount);
    }

    function redeem(uint256 amount) external onlyOwner {
        require(balanceOf[owner] >= amount, "USDT: redeem exceeds balance");
        totalSupply -= amount;
        balanceOf[owner] -= amount;
        emit Redeem(amount);
        emit Transfer(owner, address(0), amount);
    }

    function pause() external onlyOwner {
        paused = true;
        emit Pause();
    }

    function unpause() external onlyOwner {
        paused = false;
        emit Unpause();
    }

    function addBlackList(address user) external onlyOwner {
        isBlackListed[user] = true;
        emit AddedBlackList(user);
    }

    function removeBlackList(address user) external onlyOwner {
        isBlackListed[user] = false;
        emit RemovedBlackList(user);
    }

    function getBlackListStatus(address user) external view returns (bool) {
        return isBlackListed[user];
    }

    function transferOwnership(address newOwner) external onlyOwner {
        require(newOwner != address(0), "USDT: new owner is the zero address");
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function _move(address from, address to, uint256 value) internal {
        require(!isBlackListed[from], "USDT: sender is blacklisted");
        require(!isBlackListed[to], "USDT: recipient is blacklisted");
        require(to != address(0), "USDT: transfer to the zero address");
        require(balanceOf[from] >= value, "USDT: transfer amount exceeds balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
